package dev.aguistate.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.fge.jsonpatch.JsonPatch;
import com.github.fge.jsonpatch.JsonPatchException;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Predictive state over the wire: while a mapped tool's arguments stream (split at arbitrary points by the
 * stub), every STATE_DELTA applies - with an independent RFC 6902 implementation - to what the client holds,
 * and the result equals the authoritative STATE_SNAPSHOT that follows the tool.
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class PredictiveStateRunTest extends StubbedLlmTestBase {

    private static final String PAGE = """
            {"title":"Tomato soup \\"classic\\" \\u00e9t\\u00e9 \\ud83c\\udf45","servings":4,"vegan":true,"notes":null,
             "ingredients":[{"name":"tomatoes","amount":"1 kg"},{"name":"onion","amount":"1"}],
             "steps":["Chop\\nthe onion","Simmer for 2.5e1 minutes","Blend / season ~ to taste"]}""";


    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("named argument, key absent", "set_page", "{\"page\":" + PAGE + "}", "{\"other\":1}",
                        "page", 11L),
                Arguments.of("named argument, key present", "set_page", "{\"page\":" + PAGE + "}",
                        "{\"page\":{\"title\":\"old\",\"steps\":[\"x\",\"y\",\"z\",\"w\"]},\"other\":1}", "page", 12L),
                Arguments.of("whole arguments, key absent", "save_draft", PAGE, "{}", "draft", 13L),
                Arguments.of("whole arguments, key present", "save_draft", PAGE, "{\"draft\":\"an old draft\"}",
                        "draft", 14L),
                Arguments.of("an array argument", "set_page", "{\"page\":{\"list\":[[1,2],[3,[4,{\"a/b\":\"~\"}]]]}}",
                        "{}", "page", 15L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyDeltaAppliesAndTheyEndAtTheSnapshot(String name, String tool, String arguments, String clientState,
                                                  String key, long seed) throws Exception {
        stub.enqueue(StubResponse.stream().toolCall("call_p", tool, arguments)
                .randomArgumentSplits(seed).splitFramesAtBytes(seed).build());
        stub.enqueue(StubResponse.stream().text("Saved.").build());
        RunRequests request = RunRequests.fresh().user("save it");
        request.body().set("state", RunRequests.parse(clientState));

        SseClient.Stream stream = client.run("/agui/predictive-notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        List<String> types = stream.types();
        int predict = types.indexOf("CUSTOM");
        assertEquals("PredictState", stream.events().get(predict).get("name").asText());
        assertEquals("TOOL_CALL_START", types.get(predict + 1), "PredictState comes right before the mapped call");
        assertTrue(stream.ofType("STATE_DELTA").size() > 3, "the prediction grows in several steps: " + types);

        JsonNode expected = RunRequests.parse(clientState).deepCopy();
        JsonNode full = RunRequests.parse(arguments);
        ((ObjectNode) expected).set(key, "draft".equals(key) ? full : full.get(key));
        // a client that plays the run's state events onto the state it sent, and one that plays them onto an empty
        // state (CopilotKit's Node runtime): every delta applies for both
        for (JsonNode start : List.of(RunRequests.parse(clientState), RunRequests.parse("{}"))) {
            JsonNode held = start;
            JsonNode snapshot = null;
            for (JsonNode event : stream.events()) {
                switch (event.get("type").asText()) {
                    case "STATE_SNAPSHOT" -> {
                        snapshot = event.get("snapshot");
                        held = snapshot;
                    }
                    case "STATE_DELTA" -> held = apply(held, event.get("delta"));
                    case "TOOL_CALL_END" -> assertEquals(expected, held,
                            "after the last delta the client holds the full prediction (from " + start + ")");
                    default -> { }
                }
            }
            assertEquals(snapshot, held, "the deltas ended where the authoritative snapshot is (from " + start + ")");
        }
        List<JsonNode> snapshots = stream.ofType("STATE_SNAPSHOT");
        assertTrue(types.lastIndexOf("STATE_SNAPSHOT") > types.indexOf("TOOL_CALL_RESULT"), types.toString());
        if (RunRequests.parse(clientState).isEmpty()) {
            assertEquals(1, snapshots.size(), "only the authoritative snapshot: every client holds {} " + types);
        } else {
            assertEquals(2, snapshots.size(), types.toString());
            assertEquals(types.indexOf("STATE_DELTA") - 1, types.indexOf("STATE_SNAPSHOT"),
                    "the state the deltas apply to right before the first: " + types);
            assertEquals(RunRequests.parse(clientState), snapshots.get(0).get("snapshot"));
        }
    }

    @Test
    void predictStateNamesEveryMappingAndOmitsTheArgumentForWholeArguments() throws IOException {
        stub.enqueue(StubResponse.stream().toolCall("call_p", "save_draft", "{\"a\":1}").build());
        stub.enqueue(StubResponse.stream().text("ok").build());

        SseClient.Stream stream = client.run("/agui/predictive-notebook", RunRequests.fresh().user("go").json());

        JsonNode value = stream.ofType("CUSTOM").get(0).get("value");
        assertEquals(RunRequests.JSON.readTree("""
                [{"state_key":"page","tool":"set_page","tool_argument":"page"},{"state_key":"draft","tool":"save_draft"}]
                """), value);
    }

    @Test
    void anUnrelatedToolGetsNeitherPredictionNorSnapshot() {
        stub.enqueue(StubResponse.stream().toolCall("call_c", "clock", "{}").build());
        stub.enqueue(StubResponse.stream().text("Noon.").build());

        SseClient.Stream stream = client.run("/agui/predictive-notebook",
                RunRequests.fresh().user("time?").json().replace("\"messages\"", "\"state\":{},\"messages\""));

        assertTrue(stream.ofType("CUSTOM").isEmpty());
        assertTrue(stream.ofType("STATE_DELTA").isEmpty());
        assertTrue(stream.ofType("STATE_SNAPSHOT").isEmpty(), stream.types().toString());
    }

    /** A client predicting from TOOL_CALL_ARGS itself gets the mapping, the arguments and the result, no deltas. */
    @Test
    void aClientThatPredictsItselfCanOptOutOfPredictedDeltas() throws Exception {
        stub.enqueue(StubResponse.stream().toolCall("call_p", "set_page", "{\"page\":" + PAGE + "}")
                .randomArgumentSplits(3L).build());
        stub.enqueue(StubResponse.stream().text("Saved.").build());
        RunRequests request = RunRequests.fresh().user("save it");
        request.body().set("state", RunRequests.parse("{}"));
        request.body().set("forwardedProps", RunRequests.parse("{\"predictedStateDeltas\":false}"));

        SseClient.Stream stream = client.run("/agui/predictive-notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        List<String> types = stream.types();
        assertEquals("PredictState", stream.ofType("CUSTOM").get(0).get("name").asText());
        assertTrue(stream.ofType("TOOL_CALL_ARGS").size() > 1, types.toString());
        assertTrue(types.indexOf("STATE_DELTA") < 0 || types.indexOf("STATE_DELTA") > types.indexOf("TOOL_CALL_END"),
                "no delta while the arguments stream: " + types);
        JsonNode held = RunRequests.parse("{}");
        for (JsonNode event : stream.events()) {
            held = switch (event.get("type").asText()) {
                case "STATE_SNAPSHOT" -> event.get("snapshot");
                case "STATE_DELTA" -> apply(held, event.get("delta"));
                default -> held;
            };
        }
        assertEquals(RunRequests.parse(PAGE), held.get("page"), "the client ends with the tool's state");
    }

    @Test
    void aPredictedDeltasOptOutThatIsNotABooleanIsRefusedBeforeTheStream() {
        RunRequests request = RunRequests.fresh().user("save it");
        request.body().set("forwardedProps", RunRequests.parse("{\"predictedStateDeltas\":\"no\"}"));

        var response = client.post("/agui/predictive-notebook", request.json(), "Content-Type", "application/json",
                "Accept", "text/event-stream");

        assertEquals(422, response.statusCode());
        assertTrue(response.body().contains("predictedStateDeltas"), response.body());
    }

    private static JsonNode apply(JsonNode state, JsonNode patch) throws IOException, JsonPatchException {
        return JsonPatch.fromJson(patch).apply(state);
    }
}
