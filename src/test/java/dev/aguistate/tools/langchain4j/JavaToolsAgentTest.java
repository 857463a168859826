package dev.aguistate.tools.langchain4j;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.AgentsFileProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An agent of an agents file whose {@code tools} are a CDI bean's langchain4j {@code @Tool} methods ({@link OrderDesk},
 * injected nowhere): the LLM sees their schemas, calls them, and what they return is the call's result; one that
 * takes the {@code ToolContext} writes the shared state and knows the caller's credential.
 */
@QuarkusTest
@TestProfile(AgentsFileProfile.class)
class JavaToolsAgentTest extends StubbedLlmTestBase {

    @Test
    void theAgentListsTheBeansToolsAndTheLlmSeesTheirSchemas() throws Exception {
        given().header(AgentsFileProfile.AUTHORIZATION[0], AgentsFileProfile.AUTHORIZATION[1])
                .get("/agui/agents").then().statusCode(200)
                .body("agents.find { it.name == 'orders' }.tools", contains("lookupOrder", "rememberOrder"));
        stub.enqueue(StubResponse.stream().text("Hello.").build());

        client.run("/agui/orders", RunRequests.fresh().user("Hi").json(), AgentsFileProfile.AUTHORIZATION);

        Map<String, JsonNode> offered = new HashMap<>();
        stub.lastRequest().get("tools").forEach(tool -> offered.put(tool.at("/function/name").asText(),
                tool.at("/function/parameters")));
        assertEquals(RunRequests.parse("""
                {"type":"object","properties":{"orderNumber":{"type":"string",
                 "description":"the order's number, like A-17"}},"required":["orderNumber"]}"""),
                offered.get("lookupOrder"));
        assertEquals(RunRequests.parse("""
                {"type":"object","properties":{"orderNumber":{"type":"string"}},"required":["orderNumber"]}"""),
                offered.get("rememberOrder"), "the ToolContext parameter is not offered");
    }

    @Test
    void theLlmCallsTheMethodsAndTheirReturnIsTheResult() {
        stub.enqueue(StubResponse.stream()
                .toolCall("call_l", "lookupOrder", "{\"orderNumber\":\"A-17\"}")
                .toolCall("call_r", "rememberOrder", "{\"orderNumber\":\"A-17\"}")
                .build());
        stub.enqueue(StubResponse.stream().text("A-17 shipped on Monday.").build());
        RunRequests request = RunRequests.fresh().user("Where is A-17?");

        SseClient.Stream stream = client.run("/agui/orders", request.json(), AgentsFileProfile.AUTHORIZATION);

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        Map<String, String> results = new HashMap<>();
        stream.ofType("TOOL_CALL_RESULT").forEach(result ->
                results.put(result.get("toolCallId").asText(), result.get("content").asText()));
        assertEquals(Map.of("call_l", "Order A-17: shipped on Monday",
                "call_r", "remembered for a caller with API_KEY"), results);
        List<JsonNode> snapshots = stream.ofType("STATE_SNAPSHOT");
        JsonNode lastState = snapshots.isEmpty() ? null : snapshots.get(snapshots.size() - 1).get("snapshot");
        assertEquals("A-17", lastState == null ? null : lastState.path("lastOrder").textValue(),
                "rememberOrder wrote the state through its ToolContext: " + stream.types());
        JsonNode progress = stream.ofType("ACTIVITY_SNAPSHOT").get(0);
        assertEquals("tool-progress", progress.get("activityType").asText());
        assertEquals("{\"fraction\":1.0,\"message\":\"Remembered A-17\"}", progress.get("content").toString(),
                "rememberOrder showed its progress through its ToolContext");
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
    }
}
