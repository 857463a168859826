package dev.aguistate.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BinaryOperator;

/**
 * A tool the server executes: Java code registered with an agent, or a tool of a {@link ToolSource} (an MCP
 * server's, an HTTP endpoint). {@code parameters} is its JSON Schema; the handler receives the parsed arguments and
 * returns a value that becomes the tool's result (a string as is, a {@link ToolResult} as its text, a
 * {@link dev.aguistate.protocol.MessageContent} as text or content parts, anything else as JSON).
 *
 * <p>Tools and state: {@code inputsFromState} maps a state key to a parameter the server fills from state
 * (hidden from the LLM's schema); {@code outputsToState} maps a state key to where the result goes.
 */
public record BackendTool(String name, String description, JsonNode parameters, Handler handler,
                          Map<String, String> inputsFromState, Map<String, StateOutput> outputsToState) {

    /**
     * The tool's code: runs on a worker thread and may block. One that answers later (a remote call) returns a
     * {@code Uni} or {@code CompletionStage} of its result instead, and no thread waits for it; a stop of the run
     * cancels that {@code Uni}.
     */
    @FunctionalInterface
    public interface Handler {
        Object invoke(JsonNode arguments, ToolContext context) throws Exception;
    }

    public BackendTool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(handler, "handler of tool " + name);
        if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("tool name must match [A-Za-z0-9_-]{1,64}: " + name);
        }
        description = description == null ? "" : description;
        parameters = parameters == null ? new ObjectMapper().createObjectNode().put("type", "object") : parameters;
        inputsFromState = Map.copyOf(inputsFromState);
        outputsToState = Map.copyOf(outputsToState);
    }

    /** The schema the LLM sees: {@code parameters} without those filled from state. */
    public JsonNode visibleParameters() {
        if (inputsFromState.isEmpty()) {
            return parameters;
        }
        ObjectNode visible = parameters.deepCopy();
        for (String hidden : inputsFromState.values()) {
            visible.with("properties").remove(hidden);
            ArrayNode required = visible.withArray("required");
            for (int i = required.size() - 1; i >= 0; i--) {
                if (hidden.equals(required.get(i).asText())) {
                    required.remove(i);
                }
            }
        }
        return visible;
    }

    /**
     * A tool that only exists to set state (like the AG-UI dojo's {@code update_recipe}): each mapped state key
     * takes an argument ({@code "*"} = all arguments), and the LLM is answered with a fixed text.
     */
    public static BackendTool stateTool(String name, String description, JsonNode parameters, String resultText,
                                        Map<String, String> argumentsByStateKey) {
        Map<String, StateOutput> outputs = new LinkedHashMap<>();
        argumentsByStateKey.forEach((key, argument) ->
                outputs.put(key, new StateOutput("*".equals(argument) ? null : argument, null)));
        return new BackendTool(name, description, parameters, (args, context) -> new ToolResult(resultText, args),
                Map.of(), outputs);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public static final class Builder {
        private static final ObjectMapper JSON = new ObjectMapper();

        private final String name;
        private String description;
        private final ObjectNode parameters = JSON.createObjectNode().put("type", "object");
        private final Map<String, String> inputsFromState = new LinkedHashMap<>();
        private final Map<String, StateOutput> outputsToState = new LinkedHashMap<>();

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

        /** Fills {@code parameter} from the state key (and hides it from the LLM). */
        public Builder inputFromState(String stateKey, String parameter) {
            inputsFromState.put(stateKey, parameter);
            return this;
        }

        /** Writes the result's field {@code source} (null = the whole result) to the state key with its handler. */
        public Builder outputToState(String stateKey, String source) {
            return outputToState(stateKey, source, null);
        }

        public Builder outputToState(String stateKey, String source, BinaryOperator<JsonNode> handler) {
            outputsToState.put(stateKey, new StateOutput(source, handler));
            return this;
        }

        public BackendTool handler(Handler handler) {
            return new BackendTool(name, description, parameters.deepCopy(), handler, inputsFromState, outputsToState);
        }
    }
}
