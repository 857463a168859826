package dev.aguistate.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool call on an assistant message; {@code function.arguments} is JSON text. {@code type} is always "function". */
public record ToolCall(String id, String type, Function function, String encryptedValue, JsonNode metadata) {

    /**
     * The client tool through which CopilotKit and the AG-UI dojo ask the user to confirm changes: a call of it is
     * a question for the user, never a task for the model or the server.
     */
    public static final String CONFIRM_CHANGES = "confirm_changes";

    public ToolCall {
        type = type == null ? "function" : type;
    }

    public ToolCall(String id, String name, String arguments) {
        this(id, "function", new Function(name, arguments), null, null);
    }

    /** A call of the {@value #CONFIRM_CHANGES} client tool. */
    public boolean confirmsChanges() {
        return CONFIRM_CHANGES.equals(function.name());
    }

    public record Function(String name, String arguments) {}
}
