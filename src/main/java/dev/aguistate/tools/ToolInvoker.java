package dev.aguistate.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.jboss.logging.Logger;

/** Runs one backend tool call: parses its arguments, invokes the handler, turns the result into text. Blocking. */
public final class ToolInvoker {

    private static final Logger LOG = Logger.getLogger(ToolInvoker.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private ToolInvoker() {}

    public static ToolOutcome invoke(BackendTool tool, String argumentsJson) {
        try {
            return new ToolOutcome.Success(text(tool.handler().invoke(arguments(tool, argumentsJson))));
        } catch (ToolFailure failure) {
            return new ToolOutcome.Failure(failure);
        } catch (Exception e) {
            LOG.warnf(e, "tool %s failed", tool.name());
            return new ToolOutcome.Failure(new ToolFailure(ToolFailure.Kind.INVOCATION_FAILED,
                    "tool " + tool.name() + " failed: " + (e.getMessage() == null ? e.getClass().getSimpleName()
                            : e.getMessage()), e));
        }
    }

    private static JsonNode arguments(BackendTool tool, String argumentsJson) throws ToolFailure {
        if (argumentsJson == null || argumentsJson.isBlank()) {
            return JsonNodeFactory.instance.objectNode();
        }
        try {
            JsonNode arguments = JSON.readTree(argumentsJson);
            if (!arguments.isObject()) {
                throw new ToolFailure(ToolFailure.Kind.INVALID_ARGUMENTS,
                        "arguments of " + tool.name() + " must be a JSON object", null);
            }
            return arguments;
        } catch (JsonProcessingException e) {
            throw new ToolFailure(ToolFailure.Kind.INVALID_ARGUMENTS,
                    "arguments of " + tool.name() + " are not valid JSON", e);
        }
    }

    private static String text(Object result) throws ToolFailure {
        if (result == null) {
            return "";
        }
        if (result instanceof String s) {
            return s;
        }
        if (result instanceof JsonNode node && node.isTextual()) {
            return node.textValue();
        }
        try {
            return JSON.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            throw new ToolFailure(ToolFailure.Kind.RESULT_NOT_TEXT,
                    "the result of type " + result.getClass().getSimpleName() + " cannot be converted to text", e);
        }
    }
}
