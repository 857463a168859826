package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Shared state through a run: baseline snapshot, state in the LLM's context, tools reading and writing state. */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class StateRunTest extends StubbedLlmTestBase {


    private RunRequests request(String state) {
        RunRequests request = RunRequests.fresh().user("go");
        request.body().set("state", RunRequests.parse(state));
        return request;
    }

    @Test
    void noBaselineSnapshotWhenTheClientAlreadyHoldsTheState() {
        stub.enqueue(StubResponse.stream().text("ok").build());
        RunRequests request = request("{\"title\":\"Ideas\",\"notes\":[]}");

        SseClient.Stream stream = client.run("/agui/notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertTrue(stream.ofType("STATE_SNAPSHOT").isEmpty(), stream.types().toString());
    }

    @Test
    void aClientWithoutStateGetsTheServersStateRightAfterRunStartedWhenThereIsAny() {
        stub.enqueue(StubResponse.stream().text("ok").build());
        SseClient.Stream empty = client.run("/agui/notebook", RunRequests.fresh().user("go").json());
        assertTrue(empty.ofType("STATE_SNAPSHOT").isEmpty(), "no state, no news: " + empty.types());

        stub.enqueue(StubResponse.stream().text("ok").build());
        RunRequests withState = request("{\"title\":\"Ideas\"}");
        client.run("/agui/notebook", withState.json());
        stub.enqueue(StubResponse.stream().text("ok").build());
        SseClient.Stream stream = client.run("/agui/notebook",
                RunRequests.of(withState.threadId(), "run-2").user("and now?").json());

        assertEquals("STATE_SNAPSHOT", stream.types().get(stream.types().lastIndexOf("MESSAGES_SNAPSHOT") + 1));
        assertEquals(RunRequests.parse("{\"title\":\"Ideas\"}"), stream.ofType("STATE_SNAPSHOT").get(0).get("snapshot"));
    }

    @Test
    void theLlmSeesTheStateAndItsSchemaEveryRound() {
        stub.enqueue(StubResponse.stream().toolCall("c1", "add_note", "{\"text\":\"buy milk\"}").build());
        stub.enqueue(StubResponse.stream().text("Added.").build());
        RunRequests request = request("{\"title\":\"Ideas \\\"2026\\\"\",\"notes\":[\"call Bob\"]}");

        client.run("/agui/notebook", request.json());

        String first = systemText(stub.requests().get(0));
        assertTrue(first.contains("<state>") && first.contains("</state>"), first);
        assertTrue(first.contains("{\"title\":\"Ideas \\\"2026\\\"\",\"notes\":[\"call Bob\"]}"),
                "the state as compact JSON: " + first);
        assertTrue(first.contains("- notes (array): Notes, oldest first"), "the schema's descriptions: " + first);
        String second = systemText(stub.requests().get(1));
        assertTrue(second.contains("\"buy milk\""), "the next round sees the tool's write: " + second);
    }

    @Test
    void aToolThatWritesStateIsFollowedByOneSnapshot() {
        stub.enqueue(StubResponse.stream()
                .toolCall("c1", "add_note", "{\"text\":\"buy milk\"}")
                .toolCall("c2", "set_title", "{\"title\":\"Errands\"}").build());
        stub.enqueue(StubResponse.stream().text("Done.").build());
        RunRequests request = request("{\"title\":\"Ideas\",\"notes\":[\"call Bob\"]}");

        SseClient.Stream stream = client.run("/agui/notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        List<String> types = stream.types();
        int snapshot = types.indexOf("STATE_SNAPSHOT");
        assertEquals(List.of("TOOL_CALL_RESULT", "TOOL_CALL_RESULT", "STATE_SNAPSHOT", "TEXT_MESSAGE_START"),
                types.subList(snapshot - 2, snapshot + 2), types.toString());
        assertEquals(1, stream.ofType("STATE_SNAPSHOT").size());
        assertEquals(RunRequests.parse("{\"title\":\"Errands\",\"notes\":[\"call Bob\",\"buy milk\"]}"),
                stream.ofType("STATE_SNAPSHOT").get(0).get("snapshot"), "notes concatenate, title is replaced");
        assertEquals("Title updated.", stream.ofType("TOOL_CALL_RESULT").get(1).get("content").asText());
    }

    @Test
    void anUnrelatedToolSendsNoSnapshot() {
        stub.enqueue(StubResponse.stream().toolCall("c1", "clock", "{}").build());
        stub.enqueue(StubResponse.stream().text("Noon.").build());
        RunRequests request = request("{\"title\":\"Ideas\"}");

        SseClient.Stream stream = client.run("/agui/notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertTrue(stream.ofType("STATE_SNAPSHOT").isEmpty(), stream.types().toString());
    }

    @Test
    void parametersTakenFromStateAreHiddenFromTheLlmAndFilledByTheServer() {
        stub.enqueue(StubResponse.stream().toolCall("c1", "describe_title", "{\"style\":\"short\"}").build());
        stub.enqueue(StubResponse.stream().text("ok").build());
        RunRequests request = request("{\"title\":\"Secret plans\"}");

        SseClient.Stream stream = client.run("/agui/notebook", request.json());

        JsonNode offered = null;
        for (JsonNode tool : stub.requests().get(0).get("tools")) {
            if ("describe_title".equals(tool.at("/function/name").asText())) {
                offered = tool.at("/function/parameters");
            }
        }
        assertFalse(offered.get("properties").has("title"), offered.toString());
        assertTrue(offered.get("properties").has("style"));
        assertFalse(offered.path("required").toString().contains("title"), offered.toString());
        assertEquals("The title is Secret plans", stream.ofType("TOOL_CALL_RESULT").get(0).get("content").asText());
    }

    @Test
    void aResultThatDoesNotFitTheSchemaIsReportedAndLeavesTheStateAlone() {
        stub.enqueue(StubResponse.stream().toolCall("c1", "count_pages_wrongly", "{}").build());
        stub.enqueue(StubResponse.stream().text("Sorry.").build());
        RunRequests request = request("{\"title\":\"Ideas\",\"pages\":3}");

        SseClient.Stream stream = client.run("/agui/notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        String content = stream.ofType("TOOL_CALL_RESULT").get(0).get("content").asText();
        assertEquals("Error: the result of count_pages_wrongly could not be stored: state key 'pages' expects "
                + "integer but got string", content);
        assertTrue(stream.ofType("STATE_SNAPSHOT").isEmpty());
        assertTrue(systemText(stub.requests().get(1)).contains("\"pages\":3"));
    }

    @Test
    void anAgentThatRaisesOnToolFailureEndsTheRun() {
        stub.enqueue(StubResponse.stream().toolCall("c1", "count_pages_wrongly", "{}").build());
        RunRequests request = request("{\"pages\":3}");

        SseClient.Stream stream = client.run("/agui/strict-notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("RUN_ERROR", stream.last().get("type").asText());
        assertEquals("tool_failed", stream.last().get("code").asText());
        assertEquals(1, stub.requests().size());
    }

    @Test
    void clientStateThatBreaksTheSchemaIsRejectedBeforeTheStream() {
        HttpResponse<String> response = client.post("/agui/notebook", request("{\"notes\":\"not a list\"}").json(),
                "Content-Type", "application/json", "Accept", "text/event-stream");

        assertEquals(422, response.statusCode());
        JsonNode error = RunRequests.parse(response.body());
        assertEquals("invalid_state", error.get("code").asText());
        assertEquals("state key 'notes' expects array but got string", error.get("message").asText());
    }

    private static String systemText(JsonNode request) {
        StringBuilder text = new StringBuilder();
        request.get("messages").forEach(m -> {
            if ("system".equals(m.get("role").asText())) {
                text.append(m.get("content").asText()).append('\n');
            }
        });
        return text.toString();
    }
}
