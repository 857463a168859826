package dev.aguistate.run;

import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolFailure;

/** A tool call the server executes; {@code tool} is null when the model named a tool that does not exist. */
record ServerToolCall(String id, String name, String arguments, BackendTool tool) {

    ToolFailure notFound() {
        return new ToolFailure(ToolFailure.Kind.NOT_FOUND, "there is no tool named " + name, null);
    }
}
