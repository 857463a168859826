package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.ClientStateReplay;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Two-phase state: a structured-output call writes the new state (streamed as a prediction), then a summary. */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class TwoPhaseStateRunTest extends StubbedLlmTestBase {

    private static final String NEW_STATE = "{\"title\":\"Errands \\\"today\\\"\",\"notes\":[\"milk\",\"bread\"],\"pages\":2}";

    @Test
    void theStateArrivesAsPredictionsThenSnapshotThenTheSummary() {
        stub.enqueue(StubResponse.stream().text(pieces(NEW_STATE, 5)).build());
        stub.enqueue(StubResponse.stream().text("Renamed the notebook ", "and added two notes.").build());
        RunRequests request = RunRequests.fresh().user("Rename it to Errands and add milk and bread");
        request.body().set("state", RunRequests.parse("{\"title\":\"Ideas\",\"notes\":[],\"pages\":1}"));

        SseClient.Stream stream = client.run("/agui/two-phase-notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        List<String> types = stream.types();
        assertTrue(types.lastIndexOf("STATE_SNAPSHOT") < types.indexOf("TEXT_MESSAGE_START"), types.toString());
        assertTrue(stream.ofType("STATE_DELTA").size() >= 3, "the new state streams in: " + types);
        assertTrue(stream.ofType("TOOL_CALL_START").isEmpty());
        JsonNode held = ClientStateReplay.ofEveryClient(request.body().get("state"), stream.events()).held();
        JsonNode snapshot = stream.ofType("STATE_SNAPSHOT").get(stream.ofType("STATE_SNAPSHOT").size() - 1)
                .get("snapshot");
        assertEquals(RunRequests.parse(NEW_STATE), snapshot);
        assertEquals(snapshot, held, "the predictions ended where the snapshot is");
        String text = stream.ofType("TEXT_MESSAGE_CONTENT").stream().map(e -> e.get("delta").asText())
                .collect(Collectors.joining());
        assertEquals("Renamed the notebook and added two notes.", text, "the JSON never shows as text");

        JsonNode first = stub.requests().get(0);
        assertEquals("json_schema", first.at("/response_format/type").asText());
        JsonNode schema = first.at("/response_format/json_schema/schema");
        assertEquals("integer", schema.at("/properties/pages/type").asText());
        assertEquals("Notes, oldest first", schema.at("/properties/notes/description").asText());
        assertFalse(first.has("tools"));
        JsonNode second = stub.requests().get(1);
        String secondSystem = second.get("messages").toString();
        assertTrue(secondSystem.contains("concise summary of the state changes"), secondSystem);
        assertTrue(secondSystem.contains("bread"), "the summary call sees the new state: " + secondSystem);
    }

    @Test
    void outputThatBreaksTheSchemaEndsTheRunAndChangesNothing() {
        stub.enqueue(StubResponse.stream().text("{\"title\":\"x\",\"pages\":\"many\"}").build());
        RunRequests request = RunRequests.fresh().user("go");
        request.body().set("state", RunRequests.parse("{\"title\":\"Ideas\"}"));

        SseClient.Stream stream = client.run("/agui/two-phase-notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("invalid_state_output", stream.last().get("code").asText());
        assertEquals("The model's new state was rejected: state key 'pages' expects integer but got string",
                stream.last().get("message").asText());
        // the one snapshot is the state the client sent, which the predicted deltas apply to: none confirms them
        List<String> types = stream.types();
        assertEquals(1, stream.ofType("STATE_SNAPSHOT").size(), types.toString());
        assertEquals(types.indexOf("STATE_DELTA") - 1, types.indexOf("STATE_SNAPSHOT"), types.toString());
        assertEquals(request.body().get("state"), stream.ofType("STATE_SNAPSHOT").get(0).get("snapshot"));
    }

    @Test
    void outputThatIsNotJsonEndsTheRun() {
        stub.enqueue(StubResponse.stream().text("Sure! Here is the state: {").build());
        RunRequests request = RunRequests.fresh().user("go");

        SseClient.Stream stream = client.run("/agui/two-phase-notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("invalid_state_output", stream.last().get("code").asText());
    }

    private static String[] pieces(String text, int length) {
        int count = (text.length() + length - 1) / length;
        String[] pieces = new String[count];
        for (int i = 0; i < count; i++) {
            pieces[i] = text.substring(i * length, Math.min(text.length(), (i + 1) * length));
        }
        return pieces;
    }
}
