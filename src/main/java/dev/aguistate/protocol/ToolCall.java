package dev.aguistate.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool call on an assistant message; {@code function.arguments} is JSON text. {@code type} is always "function". */
public record ToolCall(String id, String type, Function function, String encryptedValue, JsonNode metadata) {

    public ToolCall {
        type = type == null ? "function" : type;
    }

    public ToolCall(String id, String name, String arguments) {
        this(id, "function", new Function(name, arguments), null, null);
    }

    public record Function(String name, String arguments) {}
}
