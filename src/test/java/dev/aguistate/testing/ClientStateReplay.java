package dev.aguistate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.github.fge.jsonpatch.JsonPatch;
import com.github.fge.jsonpatch.JsonPatchException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Plays a run's state events as a client does: each STATE_DELTA applied with java-json-tools (an RFC 6902
 * implementation independent of the server's), each STATE_SNAPSHOT taken as is. A snapshot that follows deltas
 * must equal what they built: predictions end where the authoritative state is.
 */
public final class ClientStateReplay {

    private final List<JsonNode> afterEachDelta = new ArrayList<>();
    private JsonNode held;

    private ClientStateReplay(JsonNode initial) {
        this.held = initial;
    }

    /**
     * Plays the events as both kinds of client do: one that starts from the state it sent ({@code sent}, which
     * {@code @ag-ui/client} does), and one that starts from an empty state (CopilotKit's Node runtime does). Every
     * delta must apply for both; the answer is the first's replay.
     */
    public static ClientStateReplay ofEveryClient(JsonNode sent, List<JsonNode> events) {
        of(JsonNodeFactory.instance.objectNode(), events);
        return of(sent, events);
    }

    public static ClientStateReplay of(JsonNode initial, List<JsonNode> events) {
        ClientStateReplay replay = new ClientStateReplay(initial);
        boolean deltasSinceSnapshot = false;
        for (JsonNode event : events) {
            switch (event.get("type").asText()) {
                case "STATE_DELTA" -> {
                    replay.held = apply(replay.held, event.get("delta"));
                    replay.afterEachDelta.add(replay.held);
                    deltasSinceSnapshot = true;
                }
                case "STATE_SNAPSHOT" -> {
                    if (deltasSinceSnapshot && !event.get("snapshot").equals(replay.held)) {
                        throw new AssertionError("the deltas built " + replay.held + " but the snapshot is "
                                + event.get("snapshot"));
                    }
                    replay.held = event.get("snapshot");
                    deltasSinceSnapshot = false;
                }
                default -> { }
            }
        }
        return replay;
    }

    /** What the client holds at the end. */
    public JsonNode held() {
        return held;
    }

    /** The state after each delta, in order: what the UI rendered as it streamed. */
    public List<JsonNode> afterEachDelta() {
        return afterEachDelta;
    }

    private static JsonNode apply(JsonNode state, JsonNode patch) {
        try {
            return JsonPatch.fromJson(patch).apply(state);
        } catch (IOException | JsonPatchException e) {
            throw new AssertionError("STATE_DELTA " + patch + " does not apply to " + state + ": " + e.getMessage(), e);
        }
    }
}
