package dev.aguistate.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.MessageContent;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.jboss.logging.Logger;

/**
 * Runs one backend tool call: parses its arguments, adds those taken from state, invokes, turns the result into the
 * call's outcome. The handler is called on a worker thread, since it may block; a handler that answers later returns
 * a {@code Uni} or {@code CompletionStage}, and then no thread waits for its result.
 */
public final class ToolInvoker {

    private static final Logger LOG = Logger.getLogger(ToolInvoker.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private ToolInvoker() {}

    /**
     * The call's outcome, which never fails: a failing handler is a {@link ToolOutcome.Failure}. Cancelling it
     * cancels a {@code Uni} the handler returned.
     *
     * @param stateInputs parameter name → value read from state, for the tool's {@code inputsFromState}
     */
    public static Uni<ToolOutcome> invoke(BackendTool tool, String argumentsJson, Map<String, JsonNode> stateInputs,
                                          ToolContext context) {
        return Uni.createFrom().item(() -> {
                    ObjectNode arguments = arguments(tool, argumentsJson);
                    arguments.setAll(stateInputs);
                    return handled(tool, arguments, context);
                })
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .onItem().transformToUni(ToolInvoker::completion)
                .onItem().transform(ToolInvoker::success)
                .onFailure().recoverWithItem(failure -> failed(tool, failure));
    }

    /** The handler's answer; a checked exception travels unchecked to {@link #failed}. */
    private static Object handled(BackendTool tool, ObjectNode arguments, ToolContext context) {
        try {
            return tool.handler().invoke(arguments, context);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new HandlerException(e);
        }
    }

    private static Uni<?> completion(Object result) {
        if (result instanceof Uni<?> later) {
            return later;
        }
        if (result instanceof CompletionStage<?> later) {
            return Uni.createFrom().completionStage(later);
        }
        return Uni.createFrom().item(result);
    }

    private static ToolOutcome failed(BackendTool tool, Throwable error) {
        Throwable cause = error instanceof HandlerException wrapped ? wrapped.getCause() : error;
        if (cause instanceof ToolFailure failure) {
            return new ToolOutcome.Failure(failure);
        }
        LOG.warnf(cause, "tool %s failed", tool.name());
        return new ToolOutcome.Failure(new ToolFailure(ToolFailure.Kind.INVOCATION_FAILED,
                "tool " + tool.name() + " failed: " + (cause.getMessage() == null ? cause.getClass().getSimpleName()
                        : cause.getMessage()), cause));
    }

    private static ObjectNode arguments(BackendTool tool, String argumentsJson) {
        if (argumentsJson == null || argumentsJson.isBlank()) {
            return JSON.createObjectNode();
        }
        try {
            JsonNode arguments = JSON.readTree(argumentsJson);
            if (!arguments.isObject()) {
                throw new HandlerException(new ToolFailure(ToolFailure.Kind.INVALID_ARGUMENTS,
                        "arguments of " + tool.name() + " must be a JSON object", null));
            }
            return (ObjectNode) arguments;
        } catch (JsonProcessingException e) {
            throw new HandlerException(new ToolFailure(ToolFailure.Kind.INVALID_ARGUMENTS,
                    "arguments of " + tool.name() + " are not valid JSON", e));
        }
    }

    private static ToolOutcome success(Object result) {
        if (result instanceof ToolResult explicit) {
            return new ToolOutcome.Success(explicit.text(), explicit.value());
        }
        if (result instanceof MessageContent content) {
            return new ToolOutcome.Success(content, null);
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
            throw new HandlerException(new ToolFailure(ToolFailure.Kind.RESULT_NOT_TEXT,
                    "the result of type " + result.getClass().getSimpleName() + " cannot be converted to text", e));
        }
    }

    /** A checked failure on its way through Mutiny, which carries only unchecked ones. */
    private static final class HandlerException extends RuntimeException {
        HandlerException(Exception cause) {
            super(cause);
        }
    }
}
