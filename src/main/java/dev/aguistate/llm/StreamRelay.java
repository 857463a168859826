package dev.aguistate.llm;

import dev.aguistate.sse.SseDecoder;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEvent;
import dev.langchain4j.http.client.sse.ServerSentEventContext;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import io.smallrye.mutiny.subscription.MultiEmitter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Reads one call's stream into {@link ModelEvent}s and decides, from what the upstream said, whether it succeeded.
 *
 * <p>langchain4j builds the request; the response's events come here, not to langchain4j, and each chunk is read
 * by {@link ChunkReader} (why: its documentation). What langchain4j did with them is done here as it did it: text,
 * reasoning and tool-call fragments as they come, a tool call complete when the next one starts or the stream ends,
 * the finish reason, usage and model name of the last chunk that carries them. Besides, {@code [DONE]}, an error
 * inside the stream ({@code {"error": ...}} or {@code event: error}) and {@code delta.refusal} are read.
 *
 * <p>The last completed tool call is held back until the finish reason is known, so that a call cut by the token
 * limit never reaches the run as complete. All callbacks come from one {@link SseExchange}'s context, one at a time;
 * langchain4j reports to this relay only a failure of its own ({@link #onError}).
 */
final class StreamRelay implements StreamingChatResponseHandler {

    private static final Logger LOG = Logger.getLogger(StreamRelay.class);
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private final MultiEmitter<? super ModelEvent> emitter;
    private final SseExchange exchange;
    private final boolean logEvents;
    private final ChunkReader.InPlace inPlace = new ChunkReader.InPlace();
    /** The tool call being streamed: its index, and its id, name and arguments so far. */
    private int toolIndex;
    private String toolId;
    private String toolName;
    private final StringBuilder toolArguments = new StringBuilder();
    private ModelEvent.ToolCallCompleted heldToolCall;
    private boolean toolCalls;
    private String model;
    private String finishReason;
    private ModelUsage usage;
    private boolean done;

    /** @param logEvents whether each event of the response is logged at DEBUG ({@code agui.llm.log-requests}) */
    StreamRelay(MultiEmitter<? super ModelEvent> emitter, SseExchange exchange, boolean logEvents) {
        this.emitter = emitter;
        this.exchange = exchange;
        this.logEvents = logEvents;
    }

    /**
     * The listener of the response: this relay, with langchain4j's listener hearing only of the response's head
     * (which it logs when asked to).
     */
    ServerSentEventListener reading(ServerSentEventListener langchain4j) {
        return new Reading(langchain4j);
    }

    /**
     * The response's events: an event whose data the decoder holds as ASCII bytes is read from them in place
     * ({@link ChunkReader.InPlace}), any other from its text, as is a chunk the in-place reader cannot read.
     */
    private final class Reading implements ServerSentEventListener, SseDecoder.AsciiData {

        private final ServerSentEventListener langchain4j;

        Reading(ServerSentEventListener langchain4j) {
            this.langchain4j = langchain4j;
        }

        @Override
        public void onOpen(SuccessfulHttpResponse response) {
            langchain4j.onOpen(response);
        }

        @Override
        public void onEvent(ServerSentEvent event, ServerSentEventContext context) {
            StreamRelay.this.onEvent(event);
        }

        @Override
        public void accept(byte[] bytes, int start, int length) {
            onAsciiEvent(bytes, start, length);
        }

        @Override
        public void onError(Throwable error) {
            StreamRelay.this.onError(error);
        }

        @Override
        public void onClose() {
            complete();
        }
    }

    /**
     * Logged events, {@code [DONE]}, and a chunk the in-place reader cannot read or that is an error are read from
     * their text, which also says what is wrong.
     */
    private void onAsciiEvent(byte[] bytes, int start, int length) {
        boolean asText = logEvents || Arrays.equals(bytes, start, start + length, DONE, 0, DONE.length);
        ChunkReader.Chunk chunk = asText ? null : inPlace.read(bytes, start, length);
        if (chunk == null || chunk.error() != null) {
            onEvent(new ServerSentEvent(null, new String(bytes, start, length, StandardCharsets.US_ASCII)));
        } else {
            relay(chunk);
        }
    }

    private void onEvent(ServerSentEvent event) {
        if (logEvents) {
            LOG.debugf("LLM response event: %s", event);
        }
        String data = event.data();
        if ("[DONE]".equals(data)) {
            done = true;
            return;
        }
        boolean errorEvent = "error".equals(event.event());
        ChunkReader.Chunk chunk;
        try {
            chunk = ChunkReader.read(data);
        } catch (IOException malformed) {
            // the data of an error event need not be a chunk: the event says enough
            fail(errorEvent ? new ModelFailure(ModelFailure.Kind.UNAVAILABLE, inStream(data))
                    : ModelFailures.classify(malformed));
            return;
        }
        if (errorEvent || chunk.error() != null) {
            ModelFailure.Kind kind = chunk.error() == null ? ModelFailure.Kind.UNAVAILABLE : chunk.error();
            fail(new ModelFailure(kind, inStream(data)));
            return;
        }
        relay(chunk);
    }

    /** What a chunk that is no error says. */
    private void relay(ChunkReader.Chunk chunk) {
        if (chunk.model() != null && !chunk.model().isBlank()) {
            model = chunk.model();
        }
        if (chunk.usage() != null) {
            usage = chunk.usage();
        }
        if (chunk.finishReason() != null) {
            finishReason = chunk.finishReason();
        }
        if (chunk.refusal() != null && !chunk.refusal().isEmpty()) {
            emit(new ModelEvent.TextDelta(chunk.refusal())); // the user sees why the model declines
        }
        if (chunk.content() != null && !chunk.content().isEmpty()) {
            emit(new ModelEvent.TextDelta(chunk.content()));
        }
        if (chunk.reasoning() != null && !chunk.reasoning().isEmpty()) {
            emit(new ModelEvent.ReasoningDelta(chunk.reasoning()));
        }
        if (chunk.toolCalls() != null) {
            toolCallFragments(chunk.toolCalls());
        }
    }

    private static IllegalStateException inStream(String data) {
        return new IllegalStateException("error in a 200 stream: " + data);
    }

    /**
     * A tool call is identified by its index; one without an index continues the current call, unless it names
     * another id. A call is complete when one of another index starts.
     */
    private void toolCallFragments(List<ChunkReader.ToolCallFragment> fragments) {
        for (ChunkReader.ToolCallFragment fragment : fragments) {
            int index;
            if (fragment.index() != null) {
                index = fragment.index();
            } else if (fragment.id() != null && toolId != null && !toolId.equals(fragment.id())) {
                index = toolIndex + 1;
            } else {
                index = toolIndex;
            }
            if (index != toolIndex) {
                completeToolCall();
                toolIndex = index;
            }
            if (fragment.id() != null && !fragment.id().isBlank()) {
                toolId = fragment.id();
            }
            if (fragment.name() != null && !fragment.name().isBlank()) {
                toolName = fragment.name();
            }
            String arguments = fragment.arguments();
            if (arguments != null && !arguments.isEmpty()) {
                toolArguments.append(arguments);
                emit(new ModelEvent.ToolCallDelta(index, toolId, toolName, arguments));
                toolCalls = true;
            }
        }
    }

    /** Holds the current tool call, complete, releasing the one held before. */
    private void completeToolCall() {
        if (toolId == null && toolName == null && toolArguments.isEmpty()) {
            return; // no call started at this index
        }
        releaseHeldToolCall();
        toolCalls = true;
        heldToolCall = new ModelEvent.ToolCallCompleted(toolIndex, toolId, toolName,
                toolArguments.isEmpty() ? "{}" : toolArguments.toString());
        toolId = null;
        toolName = null;
        toolArguments.setLength(0);
    }

    /** The stream ended: the call succeeded if the upstream said how it finished (or sent {@code [DONE]}). */
    private void complete() {
        inPlace.close();
        completeToolCall();
        FinishReason reason = finishReason(finishReason);
        if (reason == null && !done) {
            fail(new ModelFailure(ModelFailure.Kind.CONNECTION_LOST,
                    new IllegalStateException("the stream ended without finish_reason or [DONE]")));
        } else if ("content_filter".equals(finishReason)) {
            fail(new ModelFailure(ModelFailure.Kind.CONTENT_FILTERED, null));
        } else if (reason == FinishReason.LENGTH && toolCalls) {
            fail(new ModelFailure(ModelFailure.Kind.OUTPUT_TRUNCATED, null));
        } else {
            releaseHeldToolCall();
            ModelUsage counts = usage == null ? null : new ModelUsage(model, usage.inputTokens(),
                    usage.outputTokens(), usage.totalTokens(), usage.cachedInputTokens(), usage.reasoningTokens());
            emitter.emit(new ModelEvent.Completed(counts, reason == null ? FinishReason.OTHER : reason));
            emitter.complete();
        }
    }

    /**
     * The finish reasons langchain4j knew; null for any other, which counts as no reason, as it did there (a stream
     * that ends with one and without {@code [DONE]} is taken as cut off).
     */
    private static FinishReason finishReason(String reason) {
        if (reason == null) {
            return null;
        }
        return switch (reason) {
            case "stop" -> FinishReason.STOP;
            case "length" -> FinishReason.LENGTH;
            case "tool_calls", "function_call" -> FinishReason.TOOL_CALLS;
            case "content_filter" -> FinishReason.OTHER;
            default -> null;
        };
    }

    /** The exchange's failures, and langchain4j's own (a request it could not send as this call's). */
    @Override
    public void onError(Throwable error) {
        fail(ModelFailures.classify(error));
    }

    /** langchain4j never hears of the response (see {@link #reading}), so it never completes a call. */
    @Override
    public void onCompleteResponse(ChatResponse ignored) {
        throw new UnsupportedOperationException("the relay reads the response, not langchain4j");
    }

    private void emit(ModelEvent event) {
        releaseHeldToolCall();
        emitter.emit(event);
    }

    private void releaseHeldToolCall() {
        if (heldToolCall != null) {
            emitter.emit(heldToolCall);
            heldToolCall = null;
        }
    }

    private void fail(ModelFailure failure) {
        inPlace.close();
        exchange.cancel();
        // After the client left, a failure nobody waits for would only make Mutiny log it as dropped.
        if (!emitter.isCancelled()) {
            emitter.fail(failure);
        }
    }
}
