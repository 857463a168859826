package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /agui/{agent}/capabilities}: AG-UI's AgentCapabilities, from the sample and test agents' definitions
 * (the expectations are what those definitions declare, written out here) and the stubbed profile's limits.
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class AgentCapabilitiesTest extends StubbedLlmTestBase {

    private static JsonNode capabilities(String agent) {
        return RunRequests.parse(given().get("/agui/" + agent + "/capabilities").then().statusCode(200)
                .contentType("application/json").extract().asString());
    }

    @Test
    void theRecipeAgentDeclaresItsToolItsStateSchemaAndItsPrediction() throws IOException {
        JsonNode recipe = capabilities("recipe");

        assertEquals("recipe", recipe.at("/identity/name").asText());
        assertEquals("agui-state-server", recipe.at("/identity/type").asText());
        assertEquals("1.0", recipe.at("/identity/metadata/protocolVersion").asText());
        assertEquals("A recipe assistant whose recipe card fills in while it writes (shared, predictive state).",
                recipe.at("/identity/description").asText());

        JsonNode tools = recipe.get("tools");
        assertEquals(true, tools.get("supported").asBoolean());
        assertEquals(true, tools.get("clientProvided").asBoolean());
        assertEquals(1, tools.get("items").size());
        assertEquals("update_recipe", tools.at("/items/0/name").asText());
        assertEquals("Create or replace the recipe on the card", tools.at("/items/0/description").asText());
        assertEquals(sampleResource("recipe-tool-parameters.json"), tools.at("/items/0/parameters"));

        assertEquals(RunRequests.parse("""
                {"type":"object","properties":{"recipe":{"type":"object",
                 "description":"The recipe shown on the user's recipe card"}},"additionalProperties":false}"""),
                recipe.at("/custom/stateSchema"));
        assertEquals(json("""
                [{"stateKey":"recipe","tool":"update_recipe","toolArgument":"recipe"}]"""),
                recipe.at("/custom/predictiveState"));
        assertEquals(RunRequests.parse("""
                {"snapshots":true,"deltas":true,"memory":false,"persistentState":true}"""), recipe.get("state"));
        // recipe is not among agui.samples.require-confirmation's default (document)
        assertEquals(false, recipe.at("/humanInTheLoop/interrupts").asBoolean());
        assertEquals(false, recipe.at("/custom").has("confirmedTools"));
    }

    @Test
    void transportExecutionAndModalitiesFollowTheServer() {
        JsonNode chat = capabilities("chat");
        assertEquals(RunRequests.parse("""
                {"streaming":true,"websocket":false,"httpBinary":false,"pushNotifications":false,"resumable":true}"""),
                chat.get("transport"));
        assertEquals(RunRequests.parse("""
                {"run":"/agui/chat","connect":"/agui/chat/connect","stop":"/agui/chat/stop/{threadId}"}"""),
                chat.at("/custom/endpoints"));
        assertEquals(RunRequests.parse("""
                {"defaultStrategy":"enqueue","strategies":["reject","enqueue","interrupt","rollback","steer"]}"""),
                chat.at("/custom/multitask"), "agui.run.multitask's default, and every strategy a request may name");
        assertEquals(StubbedLlmProfile.MAX_ROUNDS, chat.at("/execution/maxIterations").asInt());
        assertEquals(Duration.ofMinutes(30).toMillis(), chat.at("/execution/maxExecutionTime").asLong(),
                "agui.run.max-duration's default");
        assertEquals(true, chat.at("/multimodal/input/image").asBoolean());
        assertEquals(true, chat.at("/multimodal/input/pdf").asBoolean());
        assertEquals(false, chat.at("/multimodal/input/video").asBoolean());
        // an OpenAI-compatible upstream may or may not stream reasoning: unknown, but relayed as it streams
        assertEquals(false, chat.get("reasoning").has("supported"));
        assertEquals(true, chat.at("/reasoning/streaming").asBoolean());
        // free-form state is any object
        assertEquals(RunRequests.parse("{\"type\":\"object\"}"), chat.at("/custom/stateSchema"));
        assertEquals(false, chat.at("/custom").has("predictiveState"));
    }

    @Test
    void aConfirmingAgentDeclaresInterruptsAndWhichToolsAsk() {
        JsonNode document = capabilities("document");
        assertEquals(RunRequests.parse("""
                {"supported":true,"approvals":true,"interventions":false,"feedback":false,"interrupts":true,
                 "approveWithEdits":true}"""), document.get("humanInTheLoop"));
        assertEquals(List.of("write_document"),
                RunRequests.JSON.convertValue(document.at("/custom/confirmedTools"), List.class));
    }

    @Test
    void parametersFilledFromStateAreNotShownAndWholeArgumentPredictionsNameNoArgument() throws IOException {
        JsonNode describeTitle = null;
        for (JsonNode item : capabilities("notebook").at("/tools/items")) {
            if (item.get("name").asText().equals("describe_title")) {
                describeTitle = item;
            }
        }
        assertEquals(false, describeTitle.at("/parameters/properties").has("title"), "filled from state");
        assertEquals(true, describeTitle.at("/parameters/properties").has("style"));

        assertEquals(json("""
                [{"stateKey":"page","tool":"set_page","toolArgument":"page"},{"stateKey":"draft","tool":"save_draft"}]"""),
                capabilities("predictive-notebook").at("/custom/predictiveState"));
    }

    @Test
    void aTwoPhaseAgentOffersNoToolsAndCallsTheModelTwice() {
        JsonNode twoPhase = capabilities("two-phase-notebook");
        assertEquals(RunRequests.parse("""
                {"supported":false,"items":[],"parallelCalls":false,"clientProvided":false}"""), twoPhase.get("tools"));
        assertEquals(2, twoPhase.at("/execution/maxIterations").asInt());
        assertEquals(List.of("title", "notes", "pages"), RunRequests.JSON.convertValue(
                twoPhase.at("/custom/stateSchema/properties"), Map.class).keySet().stream().toList());
    }

    @Test
    void aStatelessAgentDeclaresNoStateSchema() {
        JsonNode stateless = capabilities("stateless");
        assertEquals(false, stateless.at("/custom").has("stateSchema"));
        assertEquals(false, stateless.at("/state/snapshots").asBoolean());
        assertEquals(false, stateless.at("/state/persistentState").asBoolean());
    }

    @Test
    void theAgentListCarriesTheSameCapabilitiesAndNoInternalAddress() {
        String list = given().get("/agui/agents").then().statusCode(200)
                .body(not(containsString(stub.baseUrl())))
                .extract().asString();
        for (JsonNode agent : RunRequests.parse(list).get("agents")) {
            assertEquals(capabilities(agent.get("name").asText()), agent.get("capabilities"), agent.get("name").asText());
        }
        given().get("/agui/chat/capabilities").then().body(not(containsString(stub.baseUrl())));
    }

    @Test
    void anUnknownAgentIs404() {
        given().get("/agui/nobody/capabilities").then().statusCode(404).contentType("application/json")
                .body("code", equalTo("unknown_agent"));
        given().post("/agui/chat/capabilities").then().statusCode(405);
    }

    @Test
    void openApiDescribesTheEndpoint() {
        given().get("/q/openapi?format=json").then().statusCode(200)
                .body("paths.'/agui/{agent}/capabilities'.get", not(nullValue()))
                .body("paths.'/agui/agents'", hasKey("get"));
    }

    private static JsonNode json(String text) throws IOException {
        return RunRequests.JSON.readTree(text);
    }

    private static JsonNode sampleResource(String name) throws IOException {
        try (InputStream in = AgentCapabilitiesTest.class.getResourceAsStream("/samples/" + name)) {
            return RunRequests.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
