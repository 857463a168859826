package dev.aguistate.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEvent;
import dev.langchain4j.http.client.sse.ServerSentEventContext;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.CompleteToolCall;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiTokenUsage;
import dev.langchain4j.model.output.TokenUsage;
import io.smallrye.mutiny.subscription.MultiEmitter;

/**
 * Turns one call's stream into {@link ModelEvent}s and decides, from what the upstream said, whether it succeeded.
 *
 * <p>langchain4j interprets the chunks; its callbacks arrive here. What langchain4j does not read is read in one
 * place, {@link #inspect}, which sees every raw event before langchain4j does: {@code [DONE]}, an error inside
 * the stream ({@code {"error": ...}} or {@code event: error}) and {@code delta.refusal}. (langchain4j 1.19 already reads both
 * {@code reasoning_content} and {@code reasoning} as thinking.)
 *
 * <p>The last completed tool call is held back until the finish reason is known, so that a call cut by the token
 * limit never reaches the run as complete. All callbacks come from one {@link SseExchange}'s context, one at a time.
 */
final class StreamRelay implements StreamingChatResponseHandler {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final MultiEmitter<? super ModelEvent> emitter;
    private final SseExchange exchange;
    private CompleteToolCall heldToolCall;
    private boolean toolCalls;
    private boolean done;

    StreamRelay(MultiEmitter<? super ModelEvent> emitter, SseExchange exchange) {
        this.emitter = emitter;
        this.exchange = exchange;
    }

    /** langchain4j's listener, with {@link #inspect} looking at each event first. */
    ServerSentEventListener inspecting(ServerSentEventListener langchain4j) {
        return new ServerSentEventListener() {
            @Override
            public void onOpen(SuccessfulHttpResponse response) {
                langchain4j.onOpen(response);
            }

            @Override
            public void onEvent(ServerSentEvent event, ServerSentEventContext context) {
                if (inspect(event)) {
                    langchain4j.onEvent(event, context);
                }
            }

            @Override
            public void onError(Throwable error) {
                langchain4j.onError(error);
            }

            @Override
            public void onClose() {
                langchain4j.onClose();
            }
        };
    }

    /** Reads what langchain4j does not; false if the event ended the call and langchain4j must not see it. */
    private boolean inspect(ServerSentEvent event) {
        String data = event.data();
        if ("[DONE]".equals(data)) {
            done = true;
            return true;
        }
        boolean errorEvent = "error".equals(event.event());
        // Cheap test first: most chunks carry neither, and parsing every chunk twice would cost real CPU.
        if (!errorEvent && !data.contains("\"error\"") && !data.contains("\"refusal\"")) {
            return true;
        }
        JsonNode chunk;
        try {
            chunk = JSON.readTree(data);
        } catch (JsonProcessingException malformed) {
            chunk = JSON.missingNode(); // not JSON: langchain4j reports it, unless it is the data of an error event
        }
        JsonNode error = chunk.path("error");
        if (errorEvent || error.isObject() || error.isTextual()) {
            fail(new ModelFailure(inlineErrorKind(error), new IllegalStateException("error in a 200 stream: " + data)));
            return false;
        }
        JsonNode refusal = chunk.path("choices").path(0).path("delta").path("refusal");
        if (refusal.isTextual() && !refusal.asText().isEmpty()) {
            emit(new ModelEvent.TextDelta(refusal.asText())); // the user sees why the model declines
        }
        return true;
    }

    /** An inline error with an HTTP status as its code (vLLM, OpenRouter) means what that status means. */
    private static ModelFailure.Kind inlineErrorKind(JsonNode error) {
        JsonNode code = error.path("code");
        int status = code.canConvertToInt() ? code.asInt() : code.isTextual() ? code.asInt(0) : 0;
        return status >= 400 && status <= 599 ? ModelFailures.byStatus(status) : ModelFailure.Kind.UNAVAILABLE;
    }

    @Override
    public void onPartialResponse(String text) {
        if (!text.isEmpty()) {
            emit(new ModelEvent.TextDelta(text));
        }
    }

    @Override
    public void onPartialThinking(PartialThinking thinking) {
        if (thinking.text() != null && !thinking.text().isEmpty()) {
            emit(new ModelEvent.ReasoningDelta(thinking.text()));
        }
    }

    @Override
    public void onPartialToolCall(PartialToolCall partial) {
        toolCalls = true;
        emit(new ModelEvent.ToolCallDelta(partial.index(), partial.id(), partial.name(), partial.partialArguments()));
    }

    @Override
    public void onCompleteToolCall(CompleteToolCall complete) {
        releaseHeldToolCall();
        toolCalls = true;
        heldToolCall = complete;
    }

    @Override
    public void onCompleteResponse(ChatResponse response) {
        dev.langchain4j.model.output.FinishReason reason = response.finishReason();
        if (reason == null && !done) {
            fail(new ModelFailure(ModelFailure.Kind.CONNECTION_LOST,
                    new IllegalStateException("the stream ended without finish_reason or [DONE]")));
        } else if (reason == dev.langchain4j.model.output.FinishReason.CONTENT_FILTER) {
            fail(new ModelFailure(ModelFailure.Kind.CONTENT_FILTERED, null));
        } else if (reason == dev.langchain4j.model.output.FinishReason.LENGTH && toolCalls) {
            fail(new ModelFailure(ModelFailure.Kind.OUTPUT_TRUNCATED, null));
        } else {
            releaseHeldToolCall();
            emitter.emit(new ModelEvent.Completed(usage(response), finishReason(reason)));
            emitter.complete();
        }
    }

    @Override
    public void onError(Throwable error) {
        // langchain4j may keep streaming after an error (e.g. one malformed chunk); the first error ends it.
        fail(ModelFailures.classify(error));
    }

    /**
     * The response's counts, with the cached input ({@code usage.prompt_tokens_details.cached_tokens}) and reasoning
     * ({@code usage.completion_tokens_details.reasoning_tokens}) tokens when the upstream reports them.
     */
    private static ModelUsage usage(ChatResponse response) {
        TokenUsage usage = response.tokenUsage();
        if (usage == null) {
            return null;
        }
        Integer cached = null;
        Integer reasoning = null;
        if (usage instanceof OpenAiTokenUsage openAi) {
            cached = openAi.inputTokensDetails() == null ? null : openAi.inputTokensDetails().cachedTokens();
            reasoning = openAi.outputTokensDetails() == null ? null : openAi.outputTokensDetails().reasoningTokens();
        }
        return new ModelUsage(response.modelName(), usage.inputTokenCount(), usage.outputTokenCount(),
                usage.totalTokenCount(), cached, reasoning);
    }

    private static FinishReason finishReason(dev.langchain4j.model.output.FinishReason reason) {
        if (reason == null) {
            return FinishReason.OTHER;
        }
        return switch (reason) {
            case STOP -> FinishReason.STOP;
            case TOOL_EXECUTION -> FinishReason.TOOL_CALLS;
            case LENGTH -> FinishReason.LENGTH;
            case CONTENT_FILTER, OTHER -> FinishReason.OTHER;
        };
    }

    private void emit(ModelEvent event) {
        releaseHeldToolCall();
        emitter.emit(event);
    }

    private void releaseHeldToolCall() {
        if (heldToolCall != null) {
            var request = heldToolCall.toolExecutionRequest();
            emitter.emit(new ModelEvent.ToolCallCompleted(heldToolCall.index(), request.id(), request.name(),
                    request.arguments()));
            heldToolCall = null;
        }
    }

    private void fail(ModelFailure failure) {
        exchange.cancel();
        // After the client left, a failure nobody waits for would only make Mutiny log it as dropped.
        if (!emitter.isCancelled()) {
            emitter.fail(failure);
        }
    }
}
