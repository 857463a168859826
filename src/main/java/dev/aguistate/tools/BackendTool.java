package dev.aguistate.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A tool the server executes: Java code registered with an agent. {@code parameters} is the JSON Schema the
 * LLM sees; the handler receives the parsed arguments and returns a value that becomes the tool's text result
 * (a string as is, anything else as JSON).
 */
public record BackendTool(String name, String description, JsonNode parameters, Handler handler) {

    @FunctionalInterface
    public interface Handler {
        Object invoke(JsonNode arguments) throws Exception;
    }

    public BackendTool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(handler, "handler of tool " + name);
        if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("tool name must match [A-Za-z0-9_-]{1,64}: " + name);
        }
        description = description == null ? "" : description;
        parameters = parameters == null ? new ObjectMapper().createObjectNode().put("type", "object") : parameters;
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public static final class Builder {
        private static final ObjectMapper JSON = new ObjectMapper();

        private final String name;
        private String description;
        private final ObjectNode parameters = JSON.createObjectNode().put("type", "object");

        private Builder(String name) {
            this.name = name;
        }

        public Builder description(String description) {
            this.description = description;
            return this;
        }

        /** Adds a string parameter. */
        public Builder stringParameter(String parameter, String description, boolean required) {
            parameters.with("properties").putObject(parameter).put("type", "string").put("description", description);
            if (required) {
                parameters.withArray("required").add(parameter);
            }
            return this;
        }

        /** Replaces the parameters with a full JSON Schema object. */
        public Builder parameters(JsonNode schema) {
            parameters.removeAll();
            parameters.setAll((ObjectNode) schema);
            return this;
        }

        public BackendTool handler(Handler handler) {
            return new BackendTool(name, description, parameters.deepCopy(), handler);
        }
    }
}
