package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.fge.jsonpatch.JsonPatch;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.AgentsFileProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.testing.WebhookReceiverResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/** An agent declared in an agents file (agui.agents.file) is listed and runs with shared, predictive state. */
@QuarkusTest
@TestProfile(AgentsFileProfile.class)
class DeclarativeAgentRunTest extends StubbedLlmTestBase {

    @Test
    void theDeclaredAgentIsListedWithItsStateTool() {
        given().header(AgentsFileProfile.AUTHORIZATION[0], AgentsFileProfile.AUTHORIZATION[1])
                .get("/agui/agents").then().statusCode(200)
                .body("agents.find { it.name == 'itinerary' }.description",
                        equalTo("Plans a trip; the itinerary fills in while it writes."))
                .body("agents.find { it.name == 'itinerary' }.tools", contains("set_itinerary"))
                .body("agents.find { it.name == 'itinerary' }.hasState", equalTo(true))
                .body("agents.find { it.name == 'itinerary' }.isDefault", equalTo(true))
                .body("agents.find { it.name == 'chat' }.isDefault", equalTo(false));
    }

    @Test
    void itsStateToolIsPredictedWhileItStreamsAndThenStored() throws Exception {
        String itinerary = """
                {"destination":"Lisbon","stops":[{"day":1,"place":"Alfama"},{"day":2,"place":"Belém"}]}""";
        stub.enqueue(StubResponse.stream().toolCall("call_i", "set_itinerary", "{\"itinerary\":" + itinerary + "}")
                .randomArgumentSplits(21).build());
        stub.enqueue(StubResponse.stream().text("Done.").build());
        RunRequests request = RunRequests.fresh().user("Plan Lisbon");
        request.body().putObject("state");

        SseClient.Stream stream = client.run("/agui/itinerary", request.json(), AgentsFileProfile.AUTHORIZATION);

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals(RunRequests.JSON.readTree("""
                [{"state_key":"itinerary","tool":"set_itinerary","tool_argument":"itinerary"}]"""),
                stream.ofType("CUSTOM").get(0).get("value"));
        assertTrue(stream.ofType("STATE_DELTA").size() > 1, stream.types().toString());
        assertEquals("Itinerary updated.", stream.ofType("TOOL_CALL_RESULT").get(0).get("content").asText());
        JsonNode held = RunRequests.JSON.createObjectNode();
        for (JsonNode event : stream.events()) {
            switch (event.get("type").asText()) {
                case "STATE_SNAPSHOT" -> held = event.get("snapshot");
                case "STATE_DELTA" -> held = JsonPatch.fromJson(event.get("delta")).apply(held);
                default -> { }
            }
        }
        JsonNode last = stream.ofType("STATE_SNAPSHOT").get(stream.ofType("STATE_SNAPSHOT").size() - 1);
        assertEquals(RunRequests.parse("{\"itinerary\":" + itinerary + "}"), last.get("snapshot"));
        assertEquals(last.get("snapshot"), held, "the deltas and snapshots leave the client on the final state");
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
    }
}
