package dev.aguistate.run;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolFailure;

/**
 * A tool call the server executes: a backend tool's, or a sub-agent's ({@code subagent}); both are null when the
 * model named a tool that does not exist.
 */
record ServerToolCall(String id, String name, String arguments, BackendTool tool, AgentDefinition subagent) {

    ServerToolCall(String id, String name, String arguments, BackendTool tool) {
        this(id, name, arguments, tool, null);
    }

    ToolFailure notFound() {
        return new ToolFailure(ToolFailure.Kind.NOT_FOUND, "there is no tool named " + name, null);
    }
}
