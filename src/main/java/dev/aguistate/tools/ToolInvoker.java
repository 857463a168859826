package dev.aguistate.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.jboss.logging.Logger;

/** Runs one backend tool call: parses its arguments, adds those taken from state, invokes, turns the result into text. Blocking. */
public final class ToolInvoker {

    private static final Logger LOG = Logger.getLogger(ToolInvoker.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private ToolInvoker() {}

    /** @param stateInputs parameter name → value read from state, for the tool's {@code inputsFromState} */
    public static ToolOutcome invoke(BackendTool tool, String argumentsJson, Map<String, JsonNode> stateInputs,
                                     ToolContext context) {
        try {
            ObjectNode arguments = arguments(tool, argumentsJson);
            arguments.setAll(stateInputs);
            return success(tool.handler().invoke(arguments, context));
        } catch (ToolFailure failure) {
            return new ToolOutcome.Failure(failure);
        } catch (Exception e) {
            LOG.warnf(e, "tool %s failed", tool.name());
            return new ToolOutcome.Failure(new ToolFailure(ToolFailure.Kind.INVOCATION_FAILED,
                    "tool " + tool.name() + " failed: " + (e.getMessage() == null ? e.getClass().getSimpleName()
                            : e.getMessage()), e));
        }
    }

    private static ObjectNode arguments(BackendTool tool, String argumentsJson) throws ToolFailure {
        if (argumentsJson == null || argumentsJson.isBlank()) {
            return JSON.createObjectNode();
        }
        try {
            JsonNode arguments = JSON.readTree(argumentsJson);
            if (!arguments.isObject()) {
                throw new ToolFailure(ToolFailure.Kind.INVALID_ARGUMENTS,
                        "arguments of " + tool.name() + " must be a JSON object", null);
            }
            return (ObjectNode) arguments;
        } catch (JsonProcessingException e) {
            throw new ToolFailure(ToolFailure.Kind.INVALID_ARGUMENTS,
                    "arguments of " + tool.name() + " are not valid JSON", e);
        }
    }

    private static ToolOutcome success(Object result) throws ToolFailure {
        if (result instanceof ToolResult explicit) {
            return new ToolOutcome.Success(explicit.text(), explicit.value());
        }
        if (result == null) {
            return new ToolOutcome.Success("", null);
        }
        if (result instanceof String text) {
            return new ToolOutcome.Success(text, JSON.getNodeFactory().textNode(text));
        }
        try {
            JsonNode value = result instanceof JsonNode node ? node : JSON.valueToTree(result);
            return new ToolOutcome.Success(value.isTextual() ? value.textValue() : JSON.writeValueAsString(value), value);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new ToolFailure(ToolFailure.Kind.RESULT_NOT_TEXT,
                    "the result of type " + result.getClass().getSimpleName() + " cannot be converted to text", e);
        }
    }
}
