package dev.aguistate.llm.demo;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.testing.ClientStateReplay;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.ScriptedDemoProfile;
import dev.aguistate.testing.SseClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The server as a newcomer starts it: no LLM configured, the scripted demo model shows every feature. */
@QuarkusTest
@TestProfile(ScriptedDemoProfile.class)
class ScriptedDemoModelTest {

    private final SseClient client = SseClient.forTestServer();

    @Test
    void theDemoModelAnnouncesItselfToClientsAndProbes() {
        given().get("/agui/agents").then().statusCode(200).body("model.kind", equalTo("scripted-demo"));
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'llm' }.data.llmConfigured", equalTo(false));
    }

    @Test
    void mentioningTheWeatherCallsTheBackendToolAndSummarizesIt() {
        RunRequests request = RunRequests.fresh().user("What's the weather in Lisbon?");

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("get_weather", stream.ofType("TOOL_CALL_START").get(0).get("toolCallName").asText());
        assertEquals("{\"location\":\"Lisbon\"}", stream.ofType("TOOL_CALL_ARGS").stream()
                .map(e -> e.get("delta").asText()).collect(Collectors.joining()));
        JsonNode weather = RunRequests.parse(stream.ofType("TOOL_CALL_RESULT").get(0).get("content").asText());
        assertEquals("Lisbon", weather.get("location").asText());
        String summary = text(stream);
        assertTrue(summary.contains("Lisbon") && summary.contains(weather.get("conditions").asText()), summary);
    }

    @Test
    void namingAFrontendToolCallsItWithArgumentsFromItsSchema() {
        RunRequests request = RunRequests.fresh().user("Please change the background to dark green")
                .tool("change_background", "Change the page background",
                        "{\"type\":\"object\",\"properties\":{\"background\":{\"type\":\"string\"}}}");

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("change_background", stream.ofType("TOOL_CALL_START").get(0).get("toolCallName").asText());
        assertEquals("{\"background\":\"dark green\"}", stream.ofType("TOOL_CALL_ARGS").stream()
                .map(e -> e.get("delta").asText()).collect(Collectors.joining()));
        assertTrue(stream.ofType("TOOL_CALL_RESULT").isEmpty());
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
    }

    @Test
    void anythingElseGetsAGreetingThatExplainsTheDemo() {
        RunRequests request = RunRequests.fresh().user("Hello there");

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertTrue(stream.ofType("TOOL_CALL_START").isEmpty());
        assertTrue(text(stream).contains("scripted demo model"), text(stream));
        assertTrue(text(stream).contains("get_weather"), "the chat agent's own tool: " + text(stream));
    }

    @Test
    void theGreetingOfAnAgentWithoutAWeatherToolDoesNotOfferTheWeather() {
        RunRequests request = RunRequests.fresh().user("Hello there");
        request.body().putObject("state");

        SseClient.Stream stream = client.run("/agui/recipe", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertTrue(stream.ofType("TOOL_CALL_START").isEmpty());
        String greeting = text(stream);
        assertTrue(greeting.contains("update_recipe"), greeting);
        assertFalse(greeting.toLowerCase(Locale.ROOT).contains("weather"), greeting);
    }

    @Test
    void makingTheRecipeVeganKeepsWhatTheUserAddedAndReplacesTheAnimalIngredients() throws Exception {
        RunRequests first = RunRequests.fresh().user("Make me a pasta recipe");
        first.body().putObject("state");
        SseClient.Stream written = client.run("/agui/recipe", first.json());
        JsonNode card = ClientStateReplay.of(first.body().get("state"), written.events()).held();
        assertTrue(ingredientNames(card.at("/recipe/ingredients")).contains("Parmesan"),
                "the demo's pasta has cheese: " + card);
        // The user edits the card: a new title and an ingredient of their own.
        ObjectNode edited = card.deepCopy();
        ObjectNode recipe = (ObjectNode) edited.get("recipe");
        recipe.put("title", "Lemony Tomato Pasta");
        JsonNode lemon = RunRequests.parse("{\"icon\":\"🍋\",\"name\":\"Lemon zest\",\"amount\":\"1 tsp\"}");
        ((ArrayNode) recipe.get("ingredients")).add(lemon);

        RunRequests vegan = RunRequests.of(first.threadId(), "run-vegan").user("Make the recipe vegan");
        vegan.body().set("state", edited);
        SseClient.Stream stream = client.run("/agui/recipe", vegan.json());

        EventStreamVerifier.verify(stream.events(), vegan.threadId(), vegan.runId());
        List<JsonNode> snapshots = stream.ofType("STATE_SNAPSHOT");
        JsonNode after = snapshots.get(snapshots.size() - 1).get("snapshot").get("recipe");
        assertEquals(after, ClientStateReplay.of(edited, stream.events()).held().get("recipe"),
                "the streamed deltas built what the snapshot says");
        List<String> names = ingredientNames(after.get("ingredients"));
        assertFalse(names.contains("Parmesan"), names.toString());
        assertEquals(recipe.get("ingredients").size(), names.size(), "one replacement per animal ingredient: " + names);
        assertTrue(names.contains("Lemon zest"), "the user's ingredient stays: " + names);
        assertEquals(lemon, after.get("ingredients").get(names.indexOf("Lemon zest")));
        assertEquals("Lemony Tomato Pasta", after.get("title").asText(), "the user's title stays");
        assertEquals(after, storedState(vegan.threadId()).get("recipe"));
    }

    private static List<String> ingredientNames(JsonNode ingredients) {
        List<String> names = new ArrayList<>();
        ingredients.forEach(i -> names.add(i.get("name").asText()));
        return names;
    }

    private static JsonNode storedState(String threadId) {
        return RunRequests.parse(given().get("/threads/" + threadId).then().statusCode(200).extract().asString())
                .get("state");
    }

    @Test
    void theRecipeCardFillsInLiveAndEndsAtTheAuthoritativeSnapshot() {
        RunRequests request = RunRequests.fresh().user("Make me a pasta recipe");
        request.body().putObject("state");

        SseClient.Stream stream = client.run("/agui/recipe", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("PredictState", stream.ofType("CUSTOM").get(0).get("name").asText());
        ClientStateReplay replay = ClientStateReplay.of(request.body().get("state"), stream.events());
        Set<JsonNode> renders = new LinkedHashSet<>(replay.afterEachDelta());
        JsonNode held = replay.held();
        assertTrue(renders.size() >= 3, "several intermediate recipe cards: " + renders.size());
        assertEquals("Tomato Basil Pasta", held.at("/recipe/title").asText());
        assertEquals(6, held.at("/recipe/ingredients").size());
        assertTrue(text(stream).contains("Recipe updated."), text(stream));
    }

    @Test
    void theTaskListStreamsInThenTicksOffOneStepPerSmallDelta() throws Exception {
        RunRequests request = RunRequests.fresh().user("Plan the steps to bake a cake");
        request.body().putObject("state");

        SseClient.Stream stream = client.run("/agui/tasks", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        List<String> types = stream.types();
        int end = types.indexOf("TOOL_CALL_END");
        int result = types.indexOf("TOOL_CALL_RESULT");
        List<JsonNode> progress = stream.events().subList(end + 1, result).stream()
                .filter(e -> "STATE_DELTA".equals(e.get("type").asText())).toList();
        assertEquals(5, progress.size(), "one delta per finished step: " + types);
        for (int i = 0; i < progress.size(); i++) {
            assertEquals(RunRequests.JSON.readTree("[{\"op\":\"replace\",\"path\":\"/steps/" + i
                    + "/status\",\"value\":\"completed\"}]"), progress.get(i).get("delta"));
        }
        JsonNode held = ClientStateReplay.of(request.body().get("state"), stream.events()).held();
        held.get("steps").forEach(step -> assertEquals("completed", step.get("status").asText()));
    }

    @Test
    void aTwoPhaseAgentGetsStateThatFitsItsSchemaThenASummary() {
        RunRequests request = RunRequests.fresh().user("Tidy up my notebook");

        SseClient.Stream stream = client.run("/agui/two-phase-notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        JsonNode state = stream.ofType("STATE_SNAPSHOT").get(stream.ofType("STATE_SNAPSHOT").size() - 1)
                .get("snapshot");
        assertTrue(state.get("title").isTextual() && state.get("notes").isArray() && state.get("pages").isInt(),
                state.toString());
        assertFalse(text(stream).isBlank(), "the summary call answered in text");
    }

    private static String text(SseClient.Stream stream) {
        return stream.ofType("TEXT_MESSAGE_CONTENT").stream().map(e -> e.get("delta").asText())
                .collect(Collectors.joining());
    }
}
