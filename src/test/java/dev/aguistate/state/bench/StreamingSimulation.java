package dev.aguistate.state.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.PatchOperation;
import dev.aguistate.state.DeltaPacing;
import dev.aguistate.state.PredictiveMapping;
import dev.aguistate.state.PredictiveState;
import dev.aguistate.state.StateConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Streams tool arguments through {@link PredictiveState} on a simulated clock, one chunk every {@code chunkEvery}
 * (0: the whole argument at one instant), as the run loop does: after every chunk it asks for what is due, and it
 * drains everything after the last chunk (before TOOL_CALL_END). Two policies: the one before issue 16 (a drain at
 * the first chunk at least {@code interval} after the previous one) and {@link DeltaPacing}. Deterministic, so its
 * numbers can be asserted and documented.
 */
public final class StreamingSimulation {

    /** The chunk pacing of the tables before issue 16: 4 characters every 10 ms, ≈ 100 tokens/s. */
    public static final int CHUNK_EVERY_MS = 10;
    private static final long MS = 1_000_000;

    /**
     * @param deltaBytes        UTF-8 bytes of all STATE_DELTA events as serialized on the wire (without SSE framing)
     * @param events            how many STATE_DELTA events were sent
     * @param visibleLatencyMs  average age of a predicted text character when it reaches the client, counted from
     *                          the chunk that wrote it
     * @param maxEarlyLatencyMs the longest a character of the first 2,048 characters of text waited
     * @param maxLateLatencyMs  the longest any later character waited (0 when there is none)
     */
    public record Result(long deltaBytes, int events, double visibleLatencyMs, double maxEarlyLatencyMs,
                         double maxLateLatencyMs) {}

    /** What the run loop sends after a chunk arriving at {@code now}. */
    private interface Policy {
        List<PatchOperation> afterChunk(PredictiveState state, long now);
    }

    private StreamingSimulation() {}

    /** The pacing {@code agui.state.*} gives when nothing is configured: what a server does by default. */
    public static DeltaPacing defaultPacing() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(StateConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter()) // Quarkus's "250ms", as the server reads it
                .build();
        return config.getConfigMapping(StateConfig.class).deltaPacing();
    }

    /** Before issue 16, at the tables' pacing of {@value #CHUNK_EVERY_MS} ms per chunk. */
    public static Result run(ArgumentShapes shape, String arguments, int chunkSize, int coalesceMs) {
        return fixedInterval(shape, arguments, chunkSize, CHUNK_EVERY_MS, coalesceMs);
    }

    /** Before issue 16: at most one drain per {@code coalesceMs}, at a chunk (0: after every chunk). */
    public static Result fixedInterval(ArgumentShapes shape, String arguments, int chunkSize, int chunkEveryMs,
                                       int coalesceMs) {
        long interval = coalesceMs * MS;
        long[] lastDrain = {Long.MIN_VALUE / 2};
        return simulate(shape, arguments, chunkSize, chunkEveryMs * MS, (state, now) -> {
            if (now - lastDrain[0] < interval) {
                return List.of();
            }
            lastDrain[0] = now;
            return state.drain();
        });
    }

    /** With {@link PredictiveState#drainDue} and {@code pacing}, one chunk every {@code chunkEveryNanos}. */
    public static Result paced(ArgumentShapes shape, String arguments, int chunkSize, long chunkEveryNanos,
                               DeltaPacing pacing) {
        return simulate(shape, arguments, chunkSize, chunkEveryNanos, (state, now) -> state.drainDue(pacing, now));
    }

    private static Result simulate(ArgumentShapes shape, String arguments, int chunkSize, long chunkEvery,
                                   Policy policy) {
        PredictiveState state = start(shape);
        List<String> chunks = ArgumentShapes.chunks(arguments, chunkSize);
        TextWritten written = new TextWritten(new ValueTextCounter().feed(arguments));
        ClientText shown = new ClientText(written);
        ValueTextCounter counter = new ValueTextCounter();
        long now = 0;
        for (int i = 0; i < chunks.size(); i++) {
            now = i * chunkEvery;
            state.onArguments("call", chunks.get(i));
            written.upTo(counter.feed(chunks.get(i)), now);
            shown.send(policy.afterChunk(state, now), now);
        }
        shown.send(state.drain(), now);
        return shown.result();
    }

    /** The bytes of a DOCUMENT's string as a STATE_DELTA carries it (its JSON text without the quotes). */
    public static long finalStringBytes(String documentArguments) {
        String document = AgUiJson.tree(documentArguments).get(ArgumentShapes.DOCUMENT.argument).textValue();
        return AgUiJson.writeBytes(TextNode.valueOf(document)).length - 2;
    }

    public static int utf8Bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static PredictiveState start(ArgumentShapes shape) {
        PredictiveState state = new PredictiveState(JsonNodeFactory.instance.objectNode(),
                List.of(new PredictiveMapping(shape.argument, shape.tool, shape.argument)));
        state.onToolCallStart("call", shape.tool);
        return state;
    }

    /** When each character of the arguments' text values was written by the model. */
    private static final class TextWritten {
        final long[] at;
        private int count;

        TextWritten(int total) {
            this.at = new long[total];
        }

        void upTo(int total, long now) {
            for (; count < Math.min(total, at.length); count++) {
                at[count] = now;
            }
        }
    }

    /** The text the client holds, counted from the patches it gets, and how long each character waited. */
    private static final class ClientText {
        private final TextWritten written;
        private final Map<String, Integer> stringLengths = new HashMap<>();
        private int shown;
        /** The characters whose wait is already counted. */
        private int shownBefore;
        private long bytes;
        private int events;
        private double latencySum;
        private long maxEarly;
        private long maxLate;

        ClientText(TextWritten written) {
            this.written = written;
        }

        void send(List<PatchOperation> ops, long now) {
            if (ops.isEmpty()) {
                return;
            }
            bytes += AgUiJson.writeBytes(new AgUiEvent.StateDelta(ops)).length;
            events++;
            for (PatchOperation op : ops) {
                shown += register(op.path(), op.value());
            }
            for (int k = shownBefore; k < Math.min(shown, written.at.length); k++) {
                long waited = now - written.at[k];
                latencySum += waited;
                if (k < 2048) maxEarly = Math.max(maxEarly, waited); else maxLate = Math.max(maxLate, waited);
            }
            shownBefore = Math.max(shownBefore, shown);
        }

        /** The text characters a value adds at {@code path} (a replaced string adds its growth). */
        private int register(String path, JsonNode value) {
            if (value.isTextual()) {
                Integer before = stringLengths.put(path, value.textValue().length());
                return value.textValue().length() - (before == null ? 0 : before);
            }
            int added = 0;
            if (value.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> member = it.next();
                    added += register(path + "/" + member.getKey().replace("~", "~0").replace("/", "~1"),
                            member.getValue());
                }
            } else if (value.isArray()) {
                for (int i = 0; i < value.size(); i++) {
                    added += register(path + "/" + i, value.get(i));
                }
            }
            return added;
        }

        Result result() {
            int total = Math.max(1, Math.min(shown, written.at.length));
            return new Result(bytes, events, latencySum / total / MS, (double) maxEarly / MS, (double) maxLate / MS);
        }
    }

    /**
     * Counts the decoded characters of the string values (not member names) in a JSON text fed in fragments: the
     * text a user watches appear. A {@code \\uXXXX} escape counts as the one character it decodes to.
     */
    private static final class ValueTextCounter {
        private final StringBuilder containers = new StringBuilder(); // '{' expecting a name, ':' a value, '['
        private boolean inString;
        private boolean countingString;
        private int escape; // 0: none; 1: after '\'; 2..5: hex digits of a unicode escape still to come
        private int count;

        int feed(String fragment) {
            for (int i = 0; i < fragment.length(); i++) {
                accept(fragment.charAt(i));
            }
            return count;
        }

        private void accept(char c) {
            if (inString) {
                if (escape == 1) {
                    escape = c == 'u' ? 5 : 0;
                    if (c != 'u' && countingString) count++;
                } else if (escape > 1) {
                    if (--escape == 1) {
                        escape = 0;
                        if (countingString) count++;
                    }
                } else if (c == '\\') {
                    escape = 1;
                } else if (c == '"') {
                    inString = false;
                } else if (countingString) {
                    count++;
                }
                return;
            }
            int top = containers.length() - 1;
            switch (c) {
                case '"' -> {
                    inString = true;
                    countingString = top < 0 || containers.charAt(top) != '{';
                }
                case '{', '[' -> containers.append(c);
                case '}', ']' -> containers.setLength(top);
                case ':' -> containers.setCharAt(top, ':');
                case ',' -> {
                    if (containers.charAt(top) == ':') containers.setCharAt(top, '{');
                }
                default -> { }
            }
        }
    }
}
