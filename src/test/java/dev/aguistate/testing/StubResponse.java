package dev.aguistate.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * One scripted answer of {@link OpenAiStub} to a {@code POST /v1/chat/completions}.
 *
 * <p>Either an HTTP error ({@link #error}) or a completion ({@link #stream()} builder). A completion is
 * served as an SSE stream of {@code chat.completion.chunk} objects when the request says
 * {@code "stream": true}, otherwise as a single {@code chat.completion} object with the same content.
 *
 * <p>The SSE stream consists of numbered <em>data frames</em>, which the fault-injection options
 * ({@code stallAfter}, {@code dropAfter}, {@code malformedAfter}) count:
 * <ol>
 *   <li>the role chunk {@code delta: {"role":"assistant","content":""}};</li>
 *   <li>one chunk per {@link Builder#text text} delta;</li>
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

    final int status;
    final String errorBody;
    private final List<String> textDeltas;
    private final List<ToolCall> toolCalls;
    private final String finishReason;
    private final Usage usage;
    final Integer stallAfter;
    final Integer dropAfter;
    final Integer malformedAfter;
    final Duration delayBetweenChunks;
    private final Long byteSplitSeed;

    private StubResponse(int status, String errorBody) {
        this.status = status;
        this.errorBody = errorBody;
        this.textDeltas = List.of();
        this.toolCalls = List.of();
        this.finishReason = null;
        this.usage = null;
        this.stallAfter = null;
        this.dropAfter = null;
        this.malformedAfter = null;
        this.delayBetweenChunks = Duration.ZERO;
        this.byteSplitSeed = null;
    }

    private StubResponse(Builder b, List<ToolCall> toolCalls) {
        this.status = 200;
        this.errorBody = null;
        this.textDeltas = List.copyOf(b.textDeltas);
        this.toolCalls = toolCalls;
        this.finishReason = b.finishReason != null ? b.finishReason : toolCalls.isEmpty() ? "stop" : "tool_calls";
        this.usage = b.usage;
        this.stallAfter = b.stallAfter;
        this.dropAfter = b.dropAfter;
        this.malformedAfter = b.malformedAfter;
        this.delayBetweenChunks = b.delayBetweenChunks;
        this.byteSplitSeed = b.byteSplitSeed;
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
        return new StubResponse(status, Objects.requireNonNull(jsonBody, "jsonBody"));
    }

    boolean isError() {
        return errorBody != null;
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

        for (String text : textDeltas) {
            frames.add(chunk(id, created, model, JSON.createObjectNode().put("content", text), null));
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
        if (textDeltas.isEmpty()) {
            message.putNull("content");
        } else {
            message.put("content", String.join("", textDeltas));
        }
        message.putNull("refusal");
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

    private record ToolCallSpec(String id, String name, String arguments) {}

    private record ToolCall(String id, String name, String arguments, List<String> argumentFragments) {}

    private record Usage(int promptTokens, int completionTokens) {
        ObjectNode toJson() {
            return JSON.createObjectNode()
                    .put("prompt_tokens", promptTokens)
                    .put("completion_tokens", completionTokens)
                    .put("total_tokens", promptTokens + completionTokens);
        }
    }

    /** Builder for completions; every option is optional. */
    public static final class Builder {

        private final List<String> textDeltas = new ArrayList<>();
        private final List<ToolCallSpec> toolCalls = new ArrayList<>();
        private int[] argumentChunkSizes;
        private Long argumentSplitSeed;
        private String finishReason;
        private Usage usage;
        private Integer stallAfter;
        private Integer dropAfter;
        private Integer malformedAfter;
        private Duration delayBetweenChunks = Duration.ZERO;
        private Long byteSplitSeed;

        private Builder() {}

        /** Text deltas, one chunk each, appended after any earlier ones. */
        public Builder text(String... deltas) {
            for (String delta : deltas) {
                textDeltas.add(Objects.requireNonNull(delta, "delta"));
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
            this.usage = new Usage(promptTokens, completionTokens);
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
            StubResponse response = new StubResponse(this, List.copyOf(calls));
            int frameCount = response.chunkFrames("", 0, "").size();
            checkFramePosition("stallAfter", stallAfter, frameCount);
            checkFramePosition("dropAfter", dropAfter, frameCount);
            checkFramePosition("malformedAfter", malformedAfter, frameCount);
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
