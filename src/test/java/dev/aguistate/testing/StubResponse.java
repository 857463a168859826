package dev.aguistate.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CountDownLatch;

/**
 * One scripted answer of {@link OpenAiStub} to a {@code POST /v1/chat/completions}.
 *
 * <p>A completion ({@link #stream()} builder), served as an SSE stream of {@code chat.completion.chunk} objects
 * when the request says {@code "stream": true}, otherwise as a single {@code chat.completion} object with the same
 * content; or a fixed body with any status ({@link #error}, {@link #body}); or no answer at all, the connection
 * closed ({@link #closeConnection()}) or reset ({@link #resetConnection()}) after the request was read. Any of them
 * may carry extra response headers ({@link #withHeader}, e.g. {@code Retry-After}).
 *
 * <p>The SSE stream consists of numbered <em>data frames</em>, which the fault-injection options
 * ({@code stallAfter}, {@code holdAfter}, {@code dropAfter}, {@code malformedAfter}, {@code errorAfter}, {@code endAfter})
 * count:
 * <ol>
 *   <li>the role chunk {@code delta: {"role":"assistant","content":""}};</li>
 *   <li>one chunk per {@link Builder#text text}, {@link Builder#refusal refusal} or reasoning
 *       ({@link Builder#reasoning}, {@link Builder#reasoningContent}) delta, in the order added;</li>
 *   <li>per {@link Builder#toolCall tool call}: a header chunk (id, name, empty arguments), then one chunk
 *       per argument fragment;</li>
 *   <li>the finish chunk ({@code delta: {}}, {@code finish_reason});</li>
 *   <li>the usage chunk ({@code choices: []}), only if {@link Builder#usage usage} was set.</li>
 * </ol>
 * followed by {@code data: [DONE]}, which is not counted.
 *
 * <p>Instances are immutable and may be enqueued more than once.
 */
public final class StubResponse {

    static final ObjectMapper JSON = new ObjectMapper();

    private static final int MAX_RANDOM_ARGUMENT_FRAGMENT = 8;

    /** What the stub does with the request. */
    enum Kind { COMPLETION, FIXED_BODY, CLOSE_CONNECTION, RESET_CONNECTION }

    final Kind kind;
    final int status;
    final String contentType;
    final String fixedBody;
    final Map<String, String> headers;
    private final List<Delta> deltas;
    private final List<ToolCall> toolCalls;
    private final String finishReason;
    private final Usage usage;
    final Integer stallAfter;
    final Integer holdAfter;
    final CountDownLatch release;
    final Integer dropAfter;
    final Integer malformedAfter;
    final Integer errorAfter;
    final String inlineError;
    final boolean errorEvent;
    final Integer endAfter;
    final String comment;
    final Duration delayBetweenChunks;
    private final Long byteSplitSeed;

    private StubResponse(Kind kind, int status, String contentType, String fixedBody, Map<String, String> headers) {
        this.kind = kind;
        this.status = status;
        this.contentType = contentType;
        this.fixedBody = fixedBody;
        this.headers = headers;
        this.deltas = List.of();
        this.toolCalls = List.of();
        this.finishReason = null;
        this.usage = null;
        this.stallAfter = null;
        this.holdAfter = null;
        this.release = null;
        this.dropAfter = null;
        this.malformedAfter = null;
        this.errorAfter = null;
        this.inlineError = null;
        this.errorEvent = false;
        this.endAfter = null;
        this.comment = null;
        this.delayBetweenChunks = Duration.ZERO;
        this.byteSplitSeed = null;
    }

    private StubResponse(Builder b, List<ToolCall> toolCalls, Map<String, String> headers) {
        this.kind = Kind.COMPLETION;
        this.status = 200;
        this.contentType = null;
        this.fixedBody = null;
        this.headers = headers;
        this.deltas = List.copyOf(b.deltas);
        this.toolCalls = toolCalls;
        this.finishReason = b.finishReason != null ? b.finishReason : toolCalls.isEmpty() ? "stop" : "tool_calls";
        this.usage = b.usage;
        this.stallAfter = b.stallAfter;
        this.holdAfter = b.holdAfter;
        this.release = b.release;
        this.dropAfter = b.dropAfter;
        this.malformedAfter = b.malformedAfter;
        this.errorAfter = b.errorAfter;
        this.inlineError = b.inlineError;
        this.errorEvent = b.errorEvent;
        this.endAfter = b.endAfter;
        this.comment = b.comment;
        this.delayBetweenChunks = b.delayBetweenChunks;
        this.byteSplitSeed = b.byteSplitSeed;
    }

    private StubResponse(StubResponse original, Map<String, String> headers) {
        this.kind = original.kind;
        this.status = original.status;
        this.contentType = original.contentType;
        this.fixedBody = original.fixedBody;
        this.headers = headers;
        this.deltas = original.deltas;
        this.toolCalls = original.toolCalls;
        this.finishReason = original.finishReason;
        this.usage = original.usage;
        this.stallAfter = original.stallAfter;
        this.holdAfter = original.holdAfter;
        this.release = original.release;
        this.dropAfter = original.dropAfter;
        this.malformedAfter = original.malformedAfter;
        this.errorAfter = original.errorAfter;
        this.inlineError = original.inlineError;
        this.errorEvent = original.errorEvent;
        this.endAfter = original.endAfter;
        this.comment = original.comment;
        this.delayBetweenChunks = original.delayBetweenChunks;
        this.byteSplitSeed = original.byteSplitSeed;
    }

    /** Starts a completion (text and/or tool calls), served streamed or not depending on the request. */
    public static Builder stream() {
        return new Builder();
    }

    /**
     * An HTTP error with the given status and JSON body, for streaming and non-streaming requests alike, e.g.
     * {@code error(401, "{\"error\":{\"message\":\"Incorrect API key\",\"code\":\"invalid_api_key\"}}")}.
     */
    public static StubResponse error(int status, String jsonBody) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("error status must be 4xx or 5xx: " + status);
        }
        return body(status, "application/json", Objects.requireNonNull(jsonBody, "jsonBody"));
    }

    /**
     * Any status with a fixed body, e.g. what a proxy in front of the LLM answers a streaming request with:
     * {@code body(200, "text/html", "<html>...")}; {@code contentType} null sends no {@code Content-Type}.
     */
    public static StubResponse body(int status, String contentType, String body) {
        return new StubResponse(Kind.FIXED_BODY, status, contentType, Objects.requireNonNull(body, "body"), Map.of());
    }

    /** No answer: the stub reads the request, then closes the connection (FIN). */
    public static StubResponse closeConnection() {
        return new StubResponse(Kind.CLOSE_CONNECTION, 0, null, null, Map.of());
    }

    /** No answer: the stub reads the request, then resets the connection (RST). */
    public static StubResponse resetConnection() {
        return new StubResponse(Kind.RESET_CONNECTION, 0, null, null, Map.of());
    }

    /** This response with one more response header, e.g. {@code withHeader("Retry-After", "1")}. */
    public StubResponse withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
        return new StubResponse(this, Map.copyOf(more));
    }

    /** Random slice lengths for {@link Builder#splitFramesAtBytes}, or {@code null} if not splitting. */
    Random newByteSplitter() {
        return byteSplitSeed == null ? null : new Random(byteSplitSeed);
    }

    /** Payloads of the SSE data frames, in the order described in the class comment. */
    List<String> chunkFrames(String id, long created, String model) {
        List<String> frames = new ArrayList<>();

        ObjectNode roleDelta = JSON.createObjectNode().put("role", "assistant").put("content", "");
        frames.add(chunk(id, created, model, roleDelta, null));

        for (Delta delta : deltas) {
            frames.add(chunk(id, created, model, JSON.createObjectNode().put(delta.field(), delta.text()), null));
        }

        for (int i = 0; i < toolCalls.size(); i++) {
            ToolCall call = toolCalls.get(i);
            ObjectNode header = JSON.createObjectNode().put("index", i).put("id", call.id).put("type", "function");
            header.putObject("function").put("name", call.name).put("arguments", "");
            frames.add(chunk(id, created, model, toolCallsDelta(header), null));
            for (String fragment : call.argumentFragments) {
                ObjectNode piece = JSON.createObjectNode().put("index", i);
                piece.putObject("function").put("arguments", fragment);
                frames.add(chunk(id, created, model, toolCallsDelta(piece), null));
            }
        }

        frames.add(chunk(id, created, model, JSON.createObjectNode(), finishReason));

        if (usage != null) {
            ObjectNode usageChunk = chunkEnvelope(id, created, model);
            usageChunk.putArray("choices");
            usageChunk.set("usage", usage.toJson());
            frames.add(usageChunk.toString());
        }
        return frames;
    }

    /** The equivalent non-streaming {@code chat.completion} object. */
    String completionJson(String id, long created, String model) {
        ObjectNode completion = JSON.createObjectNode()
                .put("id", id)
                .put("object", "chat.completion")
                .put("created", created)
                .put("model", model);
        ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        String content = joined("content");
        String refusal = joined("refusal");
        if (content.isEmpty()) {
            message.putNull("content");
        } else {
            message.put("content", content);
        }
        if (refusal.isEmpty()) {
            message.putNull("refusal");
        } else {
            message.put("refusal", refusal);
        }
        if (!toolCalls.isEmpty()) {
            ArrayNode calls = message.putArray("tool_calls");
            for (ToolCall call : toolCalls) {
                ObjectNode c = calls.addObject().put("id", call.id).put("type", "function");
                c.putObject("function").put("name", call.name).put("arguments", call.arguments);
            }
        }
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason);
        if (usage != null) {
            completion.set("usage", usage.toJson());
        }
        return completion.toString();
    }

    private String joined(String field) {
        StringBuilder text = new StringBuilder();
        deltas.stream().filter(d -> d.field().equals(field)).forEach(d -> text.append(d.text()));
        return text.toString();
    }

    private static String chunk(String id, long created, String model, ObjectNode delta, String finishReason) {
        ObjectNode chunk = chunkEnvelope(id, created, model);
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return chunk.toString();
    }

    private static ObjectNode chunkEnvelope(String id, long created, String model) {
        return JSON.createObjectNode()
                .put("id", id)
                .put("object", "chat.completion.chunk")
                .put("created", created)
                .put("model", model);
    }

    private static ObjectNode toolCallsDelta(ObjectNode toolCall) {
        ObjectNode delta = JSON.createObjectNode();
        delta.putArray("tool_calls").add(toolCall);
        return delta;
    }

    /** A piece of the assistant's message: {@code field} is {@code content}, {@code refusal}, {@code reasoning}... */
    private record Delta(String field, String text) {}

    private record ToolCallSpec(String id, String name, String arguments) {}

    private record ToolCall(String id, String name, String arguments, List<String> argumentFragments) {}

    /** {@code cachedTokens} and {@code reasoningTokens} are the details OpenAI adds when it has them, else null. */
    private record Usage(int promptTokens, int completionTokens, Integer cachedTokens, Integer reasoningTokens) {
        ObjectNode toJson() {
            ObjectNode usage = JSON.createObjectNode()
                    .put("prompt_tokens", promptTokens)
                    .put("completion_tokens", completionTokens)
                    .put("total_tokens", promptTokens + completionTokens);
            if (cachedTokens != null) {
                usage.putObject("prompt_tokens_details").put("cached_tokens", cachedTokens);
            }
            if (reasoningTokens != null) {
                usage.putObject("completion_tokens_details").put("reasoning_tokens", reasoningTokens);
            }
            return usage;
        }
    }

    /** Builder for completions; every option is optional. */
    public static final class Builder {

        private final List<Delta> deltas = new ArrayList<>();
        private final List<ToolCallSpec> toolCalls = new ArrayList<>();
        private int[] argumentChunkSizes;
        private Long argumentSplitSeed;
        private String finishReason;
        private Usage usage;
        private Integer stallAfter;
        private Integer holdAfter;
        private CountDownLatch release;
        private Integer dropAfter;
        private Integer malformedAfter;
        private Integer errorAfter;
        private String inlineError;
        private boolean errorEvent;
        private Integer endAfter;
        private String comment;
        private Duration delayBetweenChunks = Duration.ZERO;
        private Long byteSplitSeed;

        private Builder() {}

        /** Text deltas ({@code delta.content}), one chunk each, appended after any earlier deltas. */
        public Builder text(String... deltas) {
            return deltas("content", deltas);
        }

        /** Refusal deltas ({@code delta.refusal}, as OpenAI streams a declined request), one chunk each. */
        public Builder refusal(String... deltas) {
            return deltas("refusal", deltas);
        }

        /** Reasoning deltas as OpenRouter and recent vLLM stream them ({@code delta.reasoning}), one chunk each. */
        public Builder reasoning(String... deltas) {
            return deltas("reasoning", deltas);
        }

        /** Reasoning deltas as DeepSeek and older vLLM stream them ({@code delta.reasoning_content}). */
        public Builder reasoningContent(String... deltas) {
            return deltas("reasoning_content", deltas);
        }

        private Builder deltas(String field, String... texts) {
            for (String text : texts) {
                deltas.add(new Delta(field, Objects.requireNonNull(text, "delta")));
            }
            return this;
        }

        /** A tool call; calls get indices 0, 1, ... in the order added (several = parallel calls). */
        public Builder toolCall(String id, String name, String argumentsJson) {
            toolCalls.add(new ToolCallSpec(
                    Objects.requireNonNull(id, "id"),
                    Objects.requireNonNull(name, "name"),
                    Objects.requireNonNull(argumentsJson, "argumentsJson")));
            return this;
        }

        /**
         * Splits tool-call arguments into fragments of these sizes (in code points, so surrogate pairs stay
         * whole), cycling through the sizes. Replaces {@link #randomArgumentSplits}. Default: one fragment.
         */
        public Builder argumentChunks(int... sizes) {
            if (sizes.length == 0) {
                throw new IllegalArgumentException("at least one size required");
            }
            for (int size : sizes) {
                if (size < 1) {
                    throw new IllegalArgumentException("fragment sizes must be positive: " + size);
                }
            }
            this.argumentChunkSizes = sizes.clone();
            this.argumentSplitSeed = null;
            return this;
        }

        /** Splits tool-call arguments into seeded random fragments of 1..8 code points. Replaces {@link #argumentChunks}. */
        public Builder randomArgumentSplits(long seed) {
            this.argumentSplitSeed = seed;
            this.argumentChunkSizes = null;
            return this;
        }

        /** Overrides the finish reason (default {@code stop}, or {@code tool_calls} if there are tool calls). */
        public Builder finishReason(String finishReason) {
            this.finishReason = Objects.requireNonNull(finishReason, "finishReason");
            return this;
        }

        /** Adds the final usage chunk (streaming) or {@code usage} object (non-streaming). */
        public Builder usage(int promptTokens, int completionTokens) {
            this.usage = new Usage(promptTokens, completionTokens, null, null);
            return this;
        }

        /** Usage with OpenAI's details: cached prompt tokens and reasoning tokens, parts of the two counts. */
        public Builder usage(int promptTokens, int completionTokens, int cachedTokens, int reasoningTokens) {
            this.usage = new Usage(promptTokens, completionTokens, cachedTokens, reasoningTokens);
            return this;
        }

        /**
         * After {@code frames} data frames, writes nothing more and holds the connection open until the
         * client closes it (counted by {@link OpenAiStub#disconnectCount()}) or the stub is closed.
         * For a non-streaming request: no response at all.
         */
        public Builder stallAfter(int frames) {
            this.stallAfter = frames;
            return this;
        }

        /**
         * After {@code frames} data frames, writes nothing until {@code release} is counted down, then goes on with
         * the rest: for a test that must act while the answer is still open, however long that takes. Streaming
         * only; the stub's close ends the wait as it ends a stall.
         */
        public Builder holdAfter(int frames, CountDownLatch release) {
            this.holdAfter = frames;
            this.release = Objects.requireNonNull(release, "release");
            return this;
        }

        /**
         * After {@code frames} data frames, closes the TCP connection without {@code [DONE]} and without the
         * chunked-encoding terminator. For a non-streaming request: closes without any response.
         */
        public Builder dropAfter(int frames) {
            this.dropAfter = frames;
            return this;
        }

        /**
         * After {@code frames} data frames, inserts the frame <code>data: {not json</code>, then carries on with the
         * remaining frames. For a non-streaming request: the 200 body is <code>{not json</code>.
         */
        public Builder malformedAfter(int frames) {
            this.malformedAfter = frames;
            return this;
        }

        /**
         * After {@code frames} data frames, sends the data frame {@code errorJson} (an inline error object such as
         * {@code {"error":{"message":"overloaded","code":503}}}, as vLLM and OpenRouter send one mid-stream), then
         * {@code [DONE]}, and ends the body properly. Streaming only.
         */
        public Builder errorAfter(int frames, String errorJson) {
            this.errorAfter = frames;
            this.inlineError = Objects.requireNonNull(errorJson, "errorJson");
            this.errorEvent = false;
            return this;
        }

        /** Like {@link #errorAfter}, but the error is an {@code event: error} with this data (any text). */
        public Builder errorEventAfter(int frames, String data) {
            errorAfter(frames, data);
            this.errorEvent = true;
            return this;
        }

        /**
         * After {@code frames} data frames, ends the body properly (chunked-encoding terminator) without the
         * remaining frames and without {@code [DONE]}: a stream that stops early but looks complete to HTTP.
         * Streaming only.
         */
        public Builder endAfter(int frames) {
            this.endAfter = frames;
            return this;
        }

        /** Precedes every data frame with the SSE comment {@code : comment} (proxies send such keep-alives). */
        public Builder commentBeforeEachFrame(String comment) {
            this.comment = Objects.requireNonNull(comment, "comment");
            return this;
        }

        /** Pause after every data frame, before whatever comes next (frame, injected fault or {@code [DONE]}). */
        public Builder delayBetweenChunks(Duration delay) {
            if (delay.isNegative()) {
                throw new IllegalArgumentException("negative delay: " + delay);
            }
            this.delayBetweenChunks = delay;
            return this;
        }

        /**
         * Writes each SSE frame in seeded random slices of 1..16 bytes, each its own HTTP chunk and flushed
         * separately, so that SSE lines and multi-byte UTF-8 sequences arrive split across TCP segments.
         */
        public Builder splitFramesAtBytes(long seed) {
            this.byteSplitSeed = seed;
            return this;
        }

        /** @throws IllegalArgumentException if a fault position lies beyond the last data frame */
        public StubResponse build() {
            Random random = argumentSplitSeed == null ? null : new Random(argumentSplitSeed);
            List<ToolCall> calls = new ArrayList<>();
            for (ToolCallSpec call : toolCalls) {
                calls.add(new ToolCall(call.id(), call.name(), call.arguments(), fragments(call.arguments(), random)));
            }
            StubResponse response = new StubResponse(this, List.copyOf(calls), Map.of());
            int frameCount = response.chunkFrames("", 0, "").size();
            checkFramePosition("stallAfter", stallAfter, frameCount);
            checkFramePosition("holdAfter", holdAfter, frameCount);
            checkFramePosition("dropAfter", dropAfter, frameCount);
            checkFramePosition("malformedAfter", malformedAfter, frameCount);
            checkFramePosition("errorAfter", errorAfter, frameCount);
            checkFramePosition("endAfter", endAfter, frameCount);
            return response;
        }

        private List<String> fragments(String arguments, Random random) {
            if (arguments.isEmpty()) {
                return List.of();
            }
            if (argumentChunkSizes == null && random == null) {
                return List.of(arguments);
            }
            List<String> fragments = new ArrayList<>();
            int start = 0;
            for (int n = 0; start < arguments.length(); n++) {
                int size = random != null
                        ? 1 + random.nextInt(MAX_RANDOM_ARGUMENT_FRAGMENT)
                        : argumentChunkSizes[n % argumentChunkSizes.length];
                int remainingCodePoints = arguments.codePointCount(start, arguments.length());
                int end = arguments.offsetByCodePoints(start, Math.min(size, remainingCodePoints));
                fragments.add(arguments.substring(start, end));
                start = end;
            }
            return List.copyOf(fragments);
        }

        private static void checkFramePosition(String option, Integer position, int frameCount) {
            if (position != null && (position < 0 || position > frameCount)) {
                throw new IllegalArgumentException(
                        option + "(" + position + ") outside 0.." + frameCount + " (the number of data frames)");
            }
        }
    }
}
