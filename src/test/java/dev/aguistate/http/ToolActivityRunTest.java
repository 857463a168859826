package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.state.StatePatches;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Tools that show their progress and activities: ACTIVITY_SNAPSHOT at once, ACTIVITY_DELTAs a client can apply,
 * all before the result; the activity message kept in the thread, restated on reload and to a joining client,
 * never sent to the LLM, and ignored when a client sends it back.
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class ToolActivityRunTest extends StubbedLlmTestBase {

    private static final String AGENT = "/agui/" + ProgressingAgent.NAME;

    /** The activity messages a client holds after applying the events, by message id, as {@code @ag-ui/client} does. */
    private static Map<String, JsonNode> applied(List<JsonNode> events) throws Exception {
        Map<String, JsonNode> held = new LinkedHashMap<>();
        for (JsonNode event : events) {
            String type = event.path("type").asText();
            if (type.equals("ACTIVITY_SNAPSHOT")) {
                held.put(event.get("messageId").asText(), event.get("content"));
            } else if (type.equals("ACTIVITY_DELTA")) {
                String id = event.get("messageId").asText();
                assertTrue(held.containsKey(id), "a delta of a message the client does not hold: " + event);
                AgUiEvent.ActivityDelta delta = AgUiJson.read(event.toString(), AgUiEvent.ActivityDelta.class);
                held.put(id, StatePatches.apply(held.get(id), delta.patch()));
            }
        }
        return held;
    }

    @Test
    void progressReachesTheClientWhileTheToolRunsAndEndsBeforeItsResult() throws Exception {
        ProgressingAgent.hold();
        stub.enqueue(StubResponse.stream().toolCall("call_r", "research", "{}").build());
        stub.enqueue(StubResponse.stream().text("Here is what I found.").build());
        RunRequests request = RunRequests.fresh().user("research otters");
        request.body().putObject("forwardedProps").put("onDisconnect", "continue");

        List<JsonNode> events;
        try (SseClient.LiveStream live = client.open(AGENT, request.json())) {
            JsonNode snapshot = live.await("ACTIVITY_SNAPSHOT");
            assertEquals("tool-progress", snapshot.get("activityType").asText());
            assertEquals(AgUiJson.tree("{\"fraction\":0.0,\"message\":\"Reading sources\"}"), snapshot.get("content"));
            assertTrue(live.events().stream().noneMatch(e -> e.path("type").asText().equals("TOOL_CALL_RESULT")),
                    "the snapshot comes while the tool still runs");

            try (SseClient.LiveStream joined = client.open(AGENT + "/connect",
                    RunRequests.of(request.threadId(), "join-1").json())) {
                JsonNode messages = joined.await("MESSAGES_SNAPSHOT").get("messages");
                JsonNode activity = messages.get(messages.size() - 1);
                assertEquals("activity", activity.path("role").asText(), "a joining client gets it: " + messages);
                assertEquals(snapshot.get("messageId"), activity.get("id"));
                assertEquals(snapshot.get("content"), activity.get("content"));
            }

            ProgressingAgent.letGo();
            events = live.readToEnd();
        }

        EventStreamVerifier.verify(events, request.threadId(), request.runId());
        List<String> types = events.stream().map(e -> e.get("type").asText()).toList();
        int result = types.indexOf("TOOL_CALL_RESULT");
        assertTrue(types.lastIndexOf("ACTIVITY_DELTA") < result, "every activity event precedes the result: " + types);
        String messageId = events.get(types.indexOf("ACTIVITY_SNAPSHOT")).get("messageId").asText();
        JsonNode last = AgUiJson.tree("{\"fraction\":1.0,\"message\":\"Source 20 of 20\"}");
        assertEquals(Map.of(messageId, last), applied(events), "the client ends with the last progress");
        for (JsonNode delta : events.stream().filter(e -> e.get("type").asText().equals("ACTIVITY_DELTA")).toList()) {
            assertEquals("tool-progress", delta.get("activityType").asText());
            for (JsonNode op : delta.get("patch")) {
                assertEquals("replace", op.get("op").asText(), "only what changed is replaced: " + delta);
            }
        }

        JsonNode stored = storedThread(request.threadId()).get("messages");
        List<String> roles = new ArrayList<>();
        stored.forEach(m -> roles.add(m.get("role").asText()));
        assertEquals(List.of("user", "assistant", "tool", "activity", "assistant"), roles, stored.toString());
        assertEquals(messageId, stored.get(3).get("id").asText());
        assertEquals(last, stored.get(3).get("content"));
        assertFalse(stub.requests().get(1).get("messages").toString().contains("Reading sources")
                        || stub.requests().get(1).get("messages").toString().contains("activity"),
                "the LLM never sees an activity: " + stub.requests().get(1).get("messages"));

        SseClient.Stream reload = client.run(AGENT, RunRequests.of(request.threadId(), "reload").json());
        JsonNode restated = reload.ofType("MESSAGES_SNAPSHOT").get(0).get("messages");
        assertEquals(stored, restated, "a reload gets the activity back");
    }

    @Test
    void aToolsOwnActivityIsShownThenChangedByAPatch() throws Exception {
        stub.enqueue(StubResponse.stream().toolCall("call_s", "list_sources", "{}").build());
        stub.enqueue(StubResponse.stream().text("Two.").build());
        RunRequests request = RunRequests.fresh().user("list sources");

        SseClient.Stream stream = client.run(AGENT, request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        JsonNode delta = stream.ofType("ACTIVITY_DELTA").get(0);
        assertEquals("sources", delta.get("activityType").asText());
        assertEquals(AgUiJson.tree("[{\"op\":\"add\",\"path\":\"/items/1\",\"value\":\"b\"}]"), delta.get("patch"));
        assertEquals(List.of(AgUiJson.tree("{\"items\":[\"a\",\"b\"]}")), List.copyOf(applied(stream.events()).values()));
    }

    @Test
    void activityMessagesAClientSendsBackOrLeavesOutChangeNothing() {
        stub.enqueue(StubResponse.stream().toolCall("call_s", "list_sources", "{}").build());
        stub.enqueue(StubResponse.stream().text("Two.").build());
        RunRequests first = RunRequests.fresh().user("list sources");
        client.run(AGENT, first.json());
        JsonNode stored = storedThread(first.threadId()).get("messages");

        // AG-UI 1.0's client leaves activity messages out of what it sends
        RunRequests without = RunRequests.of(first.threadId(), "run-2");
        stored.forEach(m -> {
            if (!m.get("role").asText().equals("activity")) {
                without.message(((ObjectNode) m).deepCopy());
            }
        });
        without.user("thanks");
        stub.enqueue(StubResponse.stream().text("You're welcome.").build());
        SseClient.Stream second = client.run(AGENT, without.json());
        assertTrue(second.ofType("MESSAGES_SNAPSHOT").isEmpty(), "the client holds the thread: " + second.types());

        // an older client sends them back, and one of its own making too
        JsonNode now = storedThread(first.threadId()).get("messages");
        RunRequests with = RunRequests.of(first.threadId(), "run-3");
        now.forEach(m -> with.message(((ObjectNode) m).deepCopy()));
        with.message((ObjectNode) AgUiJson.tree(
                "{\"id\":\"client-activity\",\"role\":\"activity\",\"activityType\":\"mine\",\"content\":{}}"));
        with.user("bye");
        stub.enqueue(StubResponse.stream().text("Bye.").build());
        SseClient.Stream third = client.run(AGENT, with.json());

        EventStreamVerifier.verify(third.events(), first.threadId(), "run-3");
        assertTrue(third.ofType("MESSAGES_SNAPSHOT").isEmpty(), third.types().toString());
        JsonNode last = storedThread(first.threadId()).get("messages");
        assertFalse(last.toString().contains("client-activity"), "a client's activity is not kept: " + last);
        assertEquals(1, last.findValues("activityType").size(), last.toString());
        assertFalse(stub.lastRequest().toString().contains("\"activity\""), stub.lastRequest().toString());
    }
}
