package dev.aguistate.state.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.PatchOperation;
import dev.aguistate.state.PredictiveMapping;
import dev.aguistate.state.PredictiveState;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Streams tool arguments through {@link PredictiveState} on a simulated clock, one chunk every
 * {@value #CHUNK_EVERY_MS} ms, draining every {@code coalesceMs} (0: after every chunk) and always after the last
 * chunk, as the run loop does before TOOL_CALL_END. Deterministic, so its numbers can be asserted and documented.
 */
public final class StreamingSimulation {

    public static final int CHUNK_EVERY_MS = 10;

    /**
     * @param deltaBytes        UTF-8 bytes of all STATE_DELTA events as serialized on the wire (without SSE framing)
     * @param events            how many STATE_DELTA events were sent
     * @param visibleLatencyMs  average age of a predicted text character when it reaches the client, counted from
     *                          when the server could first have shown it (so draining after every chunk scores 0)
     */
    public record Result(long deltaBytes, int events, double visibleLatencyMs) {}

    private StreamingSimulation() {}

    public static Result run(ArgumentShapes shape, String arguments, int chunkSize, int coalesceMs) {
        int drainEvery = Math.max(1, coalesceMs / CHUNK_EVERY_MS);
        PredictiveState coalesced = start(shape);
        PredictiveState immediate = start(shape);
        List<String> chunks = ArgumentShapes.chunks(arguments, chunkSize);
        long deltaBytes = 0;
        int events = 0;
        long lagChunkChars = 0; // Σ over chunks of the text shown by `immediate` but not yet by `coalesced`
        for (int i = 0; i < chunks.size(); i++) {
            coalesced.onArguments("call", chunks.get(i));
            immediate.onArguments("call", chunks.get(i));
            immediate.drain();
            if ((i + 1) % drainEvery == 0 || i == chunks.size() - 1) {
                List<PatchOperation> ops = coalesced.drain();
                if (!ops.isEmpty()) {
                    deltaBytes += AgUiJson.writeBytes(new AgUiEvent.StateDelta(ops)).length;
                    events++;
                }
            }
            lagChunkChars += textLength(immediate.clientView()) - textLength(coalesced.clientView());
        }
        double latency = (double) lagChunkChars * CHUNK_EVERY_MS / textLength(immediate.clientView());
        return new Result(deltaBytes, events, latency);
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

    /** Characters of all strings in the value: the text a user watches appear. */
    private static long textLength(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue().length();
        }
        long length = 0;
        for (JsonNode child : node) {
            length += textLength(child);
        }
        return length;
    }
}
