package dev.aguistate.llm.demo;

import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.ToolSchemas;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.samples.SampleAgentDefinitions;
import dev.aguistate.state.JsonType;
import dev.aguistate.state.State;
import dev.aguistate.state.StatePrompt;
import dev.aguistate.state.StateSchema;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The scripted demo model works from the state the run loop shows it: requests built as the run loop builds a
 * tools round (the agent's instructions, the state message rendered by {@link StatePrompt}, the user's message,
 * the agent's tools), with the sample agents as the server defines them.
 */
@Execution(ExecutionMode.CONCURRENT)
class ScriptedDemoEditsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final StatePrompt DEFAULT_PROMPT = new StatePrompt(StatePrompt.DEFAULT_TEMPLATE, 16_000);

    private final ScriptedDemoModel model = new ScriptedDemoModel(Duration.ZERO);

    @Test
    void veganReplacesTheAnimalIngredientsAndKeepsEverythingElseTheUserHas() {
        ObjectNode recipe = exampleRecipe();
        recipe.put("title", "Lemony Tomato Pasta");
        ArrayNode ingredients = (ArrayNode) recipe.get("ingredients");
        ingredients.add(ingredient("🍋", "Lemon zest", "1 tsp"));
        ingredients.add(ingredient("🧈", "Butter", "30 g"));
        List<String> animal = List.of("Parmesan", "Butter");

        Reply reply = ask(SampleAgentDefinitions.recipe(), state("recipe", recipe), "Make the recipe vegan");

        JsonNode vegan = reply.onlyCall("update_recipe").get("recipe");
        assertEquals(ingredients.size(), vegan.get("ingredients").size(), vegan.toString());
        for (int i = 0; i < ingredients.size(); i++) {
            JsonNode before = ingredients.get(i);
            JsonNode after = vegan.get("ingredients").get(i);
            if (animal.contains(before.get("name").asText())) {
                assertNotEquals(before.get("name"), after.get("name"), "replaced: " + after);
            } else {
                assertEquals(before, after, "kept as the user has it");
            }
        }
        for (JsonNode step : vegan.get("instructions")) {
            animal.forEach(a -> assertFalse(step.asText().contains(a), step.asText()));
        }
        assertEquals("Lemony Tomato Pasta", vegan.get("title").asText());
        assertTrue(strings(vegan.get("special_preferences")).contains("Vegan"), vegan.toString());
    }

    @Test
    void anEditNeedsNoToolNameAndLabelsTheRecipeAsTheSchemaSpellsIt() {
        ObjectNode recipe = exampleRecipe();

        Reply reply = ask(SampleAgentDefinitions.recipe(), state("recipe", recipe), "Make it gluten-free");

        JsonNode glutenFree = reply.onlyCall("update_recipe").get("recipe");
        assertNotEquals("Spaghetti", glutenFree.at("/ingredients/0/name").asText());
        for (int i = 1; i < recipe.get("ingredients").size(); i++) {
            assertEquals(recipe.get("ingredients").get(i), glutenFree.get("ingredients").get(i));
        }
        String labelsDescription = recipeSchema().at("/properties/special_preferences/description").asText();
        assertTrue(labelsDescription.contains("Gluten Free"), labelsDescription);
        assertTrue(strings(glutenFree.get("special_preferences")).contains("Gluten Free"), glutenFree.toString());
    }

    @Test
    void anEditThatChangesNothingIsSaidInsteadOfCalled() {
        JsonNode vegan = ask(SampleAgentDefinitions.recipe(), state("recipe", exampleRecipe()), "Make it vegan")
                .onlyCall("update_recipe").get("recipe");

        Reply again = ask(SampleAgentDefinitions.recipe(), state("recipe", vegan), "Make the recipe vegan");

        assertTrue(again.calls().isEmpty(), again.calls().toString());
        assertTrue(again.text().toLowerCase(Locale.ROOT).contains("nothing to change"), again.text());
    }

    @Test
    void aRequestTheDemoCannotDoLeavesTheUsersRecipeAloneAndSaysWhatItCanDo() {
        ObjectNode recipe = exampleRecipe();
        recipe.put("title", "My own pasta");

        Reply reply = ask(SampleAgentDefinitions.recipe(), state("recipe", recipe), "Make the recipe spicy");

        assertTrue(reply.calls().isEmpty(), reply.calls().toString());
        assertTrue(reply.text().contains("vegan"), reply.text());
    }

    @Test
    void aNewRecipeIsTheSchemaExampleAndAnEditOfAnEmptyCardStartsFromIt() {
        JsonNode written = ask(SampleAgentDefinitions.recipe(), JSON.createObjectNode(), "Make me a pasta recipe")
                .onlyCall("update_recipe").get("recipe");
        JsonNode vegan = ask(SampleAgentDefinitions.recipe(), JSON.createObjectNode(), "Make the recipe vegan")
                .onlyCall("update_recipe").get("recipe");

        assertEquals(exampleRecipe(), written);
        assertEquals(exampleRecipe().get("title"), vegan.get("title"));
        assertFalse(ingredientNames(vegan).contains("Parmesan"), vegan.toString());
    }

    @Test
    void aStateItCannotReadLeavesItTheSchemaExample() {
        ObjectNode recipe = exampleRecipe();
        recipe.put("title", "My own pasta");
        ObjectNode values = state("recipe", recipe);
        AgentDefinition agent = SampleAgentDefinitions.recipe();
        String truncated = new StatePrompt(StatePrompt.DEFAULT_TEMPLATE, 200).message(stateOf(agent, values)).orElseThrow();
        assertTrue(truncated.contains("(truncated"), truncated);
        String noMarkers = new StatePrompt("The recipe card now: {state}", 16_000).message(stateOf(agent, values))
                .orElseThrow();

        for (String stateMessage : List.of(truncated, noMarkers)) {
            JsonNode vegan = reply(request(agent, stateMessage, "Make the recipe vegan")).onlyCall("update_recipe")
                    .get("recipe");
            assertEquals(exampleRecipe().get("title"), vegan.get("title"), stateMessage);
            assertFalse(ingredientNames(vegan).contains("Parmesan"), vegan.toString());
        }
    }

    @Test
    void theDocumentIsShortenedAndExtendedFromItsCurrentText() {
        String mine = """
                # Notes on hills

                Hills are lovely in spring. They are green and quiet.

                ## Walking

                Walk slowly up the path. Rest at the top. Then walk down.

                - boots
                - water""";

        String shorter = ask(SampleAgentDefinitions.document(), state("document", mine), "Make it shorter")
                .onlyCall("write_document").get("document").asText();
        String concluded = ask(SampleAgentDefinitions.document(), state("document", mine), "Add a conclusion")
                .onlyCall("write_document").get("document").asText();

        assertTrue(shorter.length() < mine.length(), shorter);
        for (String kept : List.of("# Notes on hills", "## Walking", "Hills are lovely in spring.",
                "Walk slowly up the path.", "- boots", "- water")) {
            assertTrue(shorter.contains(kept), kept + " in " + shorter);
        }
        assertTrue(concluded.startsWith(mine), concluded);
        String added = concluded.substring(mine.length());
        assertTrue(added.lines().anyMatch(l -> l.startsWith("#") && l.contains("Conclusion")), added);
    }

    @Test
    void aStepAddedToTheTasksKeepsThePlanTheUserHas() throws Exception {
        JsonNode steps = JSON.readTree("""
                [{"description":"Buy flour","status":"completed"},
                 {"description":"Bake the sponge","status":"completed"}]""");

        JsonNode planned = ask(SampleAgentDefinitions.tasks(), state("steps", steps), "Add a step to decorate the cake")
                .onlyCall("execute_steps").get("steps");

        assertEquals(3, planned.size(), planned.toString());
        assertEquals(steps.get(0), planned.get(0));
        assertEquals(steps.get(1), planned.get(1));
        assertTrue(planned.get(2).get("description").asText().toLowerCase(Locale.ROOT).contains("decorate the cake"),
                planned.toString());
        assertEquals("pending", planned.get(2).get("status").asText());
    }

    @Test
    void theGreetingOffersOnlyTheToolsTheAgentHas() {
        List<AgentDefinition> samples = List.of(SampleAgentDefinitions.chat(), SampleAgentDefinitions.recipe(),
                SampleAgentDefinitions.document(), SampleAgentDefinitions.tasks());
        for (AgentDefinition agent : samples) {
            String greeting = ask(agent, JSON.createObjectNode(), "Hello").text();
            assertTrue(greeting.contains("scripted demo model"), greeting);
            for (AgentDefinition other : samples) {
                for (String tool : other.tools().keySet()) {
                    assertEquals(agent.tools().containsKey(tool), greeting.contains(tool), agent.name() + ": " + greeting);
                }
            }
            assertEquals(agent.tools().containsKey("get_weather"),
                    greeting.toLowerCase(Locale.ROOT).contains("weather"), agent.name() + ": " + greeting);
        }
    }

    @Test
    void structuredOutputKeepsTheStateTheUserHas() throws Exception {
        StateSchema schema = StateSchema.builder().key("title", "The title", JsonType.STRING)
                .key("notes", "The notes", JsonType.ARRAY).build();
        JsonNode values = JSON.readTree("{\"title\":\"My notebook\",\"notes\":[\"milk and eggs\"]}");
        List<ChatMessage> messages = List.of(
                SystemMessage.from(DEFAULT_PROMPT.message(new State(schema, values)).orElseThrow()),
                UserMessage.from("Make it vegan"));
        ChatRequest request = ChatRequest.builder().messages(messages).responseFormat(ResponseFormat.builder()
                .type(ResponseFormatType.JSON).jsonSchema(JsonSchema.builder().name("state")
                        .rootElement(JsonRawSchema.from(schema.toJsonSchema().toString())).build()).build()).build();

        JsonNode answer = JSON.readTree(reply(request).text());

        assertEquals("My notebook", answer.get("title").asText());
        assertEquals(1, answer.get("notes").size());
        assertNotEquals(values.at("/notes/0"), answer.at("/notes/0"), "the note was made vegan: " + answer);
    }

    // --- requests as the run loop builds them, and what the model answered

    private record Reply(String text, List<ModelEvent.ToolCallCompleted> calls) {

        JsonNode onlyCall(String tool) {
            assertEquals(1, calls.size(), "one tool call; the model said: " + text);
            assertEquals(tool, calls.get(0).name());
            try {
                return JSON.readTree(calls.get(0).arguments());
            } catch (Exception e) {
                throw new AssertionError("arguments are JSON: " + calls.get(0).arguments(), e);
            }
        }
    }

    private Reply ask(AgentDefinition agent, JsonNode stateValues, String said) {
        String stateMessage = DEFAULT_PROMPT.message(stateOf(agent, stateValues)).orElse(null);
        return reply(request(agent, stateMessage, said));
    }

    private Reply reply(ChatRequest request) {
        List<ModelEvent> events = model.stream(request).collect().asList().await().atMost(Duration.ofSeconds(10));
        String text = events.stream().filter(ModelEvent.TextDelta.class::isInstance)
                .map(e -> ((ModelEvent.TextDelta) e).text()).collect(Collectors.joining());
        List<ModelEvent.ToolCallCompleted> calls = events.stream()
                .filter(ModelEvent.ToolCallCompleted.class::isInstance).map(ModelEvent.ToolCallCompleted.class::cast)
                .toList();
        assertTrue(events.get(events.size() - 1) instanceof ModelEvent.Completed, events.toString());
        return new Reply(text, calls);
    }

    /** A tools round: instructions, the state message (when there is one), the user's message, the agent's tools. */
    private static ChatRequest request(AgentDefinition agent, String stateMessage, String said) {
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(SystemMessage.from(agent.instructions()));
        if (stateMessage != null) {
            messages.add(SystemMessage.from(stateMessage));
        }
        messages.add(UserMessage.from(said));
        List<ToolSpecification> tools = agent.tools().values().stream()
                .map(t -> ToolSchemas.specification(t.name(), t.description(), t.visibleParameters())).toList();
        return ChatRequest.builder().messages(messages).toolSpecifications(tools).build();
    }

    private static State stateOf(AgentDefinition agent, JsonNode values) {
        return new State(agent.state(), values);
    }

    private static ObjectNode state(String key, JsonNode value) {
        ObjectNode state = JSON.createObjectNode();
        state.set(key, value);
        return state;
    }

    private static ObjectNode state(String key, String value) {
        return JSON.createObjectNode().put(key, value);
    }

    private static JsonNode recipeSchema() {
        return SampleAgentDefinitions.recipe().tool("update_recipe").orElseThrow().parameters()
                .at("/properties/recipe");
    }

    /** The recipe the sample's tool schema carries as its example. */
    private static ObjectNode exampleRecipe() {
        return (ObjectNode) recipeSchema().at("/examples/0").deepCopy();
    }

    private static ObjectNode ingredient(String icon, String name, String amount) {
        return JSON.createObjectNode().put("icon", icon).put("name", name).put("amount", amount);
    }

    private static List<String> ingredientNames(JsonNode recipe) {
        List<String> names = new ArrayList<>();
        recipe.get("ingredients").forEach(i -> names.add(i.get("name").asText()));
        return names;
    }

    private static List<String> strings(JsonNode array) {
        List<String> strings = new ArrayList<>();
        array.forEach(s -> strings.add(s.asText()));
        return strings;
    }
}
