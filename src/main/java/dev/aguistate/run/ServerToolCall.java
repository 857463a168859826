package dev.aguistate.run;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolFailure;

/**
 * A tool call the server executes: a backend tool's, or a sub-agent's ({@code subagent}); both are null when the
 * model named a tool that does not exist. {@code resumes} is set when the call is a sub-agent's that waited for the
 * user: its run goes on with the answers instead of starting again.
 */
record ServerToolCall(String id, String name, String arguments, BackendTool tool, AgentDefinition subagent,
                      SuspendedSubagent resumes) {

    ServerToolCall(String id, String name, String arguments, BackendTool tool) {
        this(id, name, arguments, tool, null, null);
    }

    ServerToolCall(String id, String name, String arguments, BackendTool tool, AgentDefinition subagent) {
        this(id, name, arguments, tool, subagent, null);
    }

    ToolFailure notFound() {
        return new ToolFailure(ToolFailure.Kind.NOT_FOUND, "there is no tool named " + name, null);
    }

    /**
     * A sub-agent run that asked for the user's confirmation and the answers to its questions: the parent's call
     * stayed without a result, and the run continues where it stopped.
     */
    record SuspendedSubagent(String subagentRunId, Confirmations.Answered answers) {}
}
