package dev.aguistate.protocol;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One RFC 6902 operation. {@code value} absent (Java null) differs from {@code value: null} (a NullNode),
 * which is how a state key is set to JSON null.
 */
@JsonPropertyOrder({"op", "path", "value", "from"})
public record PatchOperation(String op, String path, JsonNode value, String from) {

    public static PatchOperation add(String path, JsonNode value) { return new PatchOperation("add", path, value, null); }

    public static PatchOperation replace(String path, JsonNode value) {
        return new PatchOperation("replace", path, value, null);
    }

    public static PatchOperation remove(String path) { return new PatchOperation("remove", path, null, null); }
}
