package com.example.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.state.JsonType;
import dev.aguistate.state.StateSchema;
import dev.aguistate.tools.BackendTool;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Shared state with a schema, a state tool and predictive state (docs/agents.md): the page's recipe card fills in
 * while the LLM writes {@code update_recipe}'s arguments. In your project: {@code src/main/java/com/example/agents/}.
 */
public class CookbookAgent {

    /** The tool's arguments as JSON Schema: what the LLM must write. */
    private static final String RECIPE_PARAMETERS = """
            {"type": "object", "required": ["recipe"], "properties": {"recipe": {
              "type": "object", "required": ["title", "ingredients", "instructions"], "properties": {
                "title": {"type": "string"},
                "ingredients": {"type": "array", "items": {"type": "object", "properties": {
                  "name": {"type": "string"}, "amount": {"type": "string"}}}},
                "instructions": {"type": "array", "items": {"type": "string"}}}}}}
            """;

    @Produces
    @Singleton
    AgentDefinition cookbook() {
        JsonNode parametersSchema = parse(RECIPE_PARAMETERS);
        return AgentDefinition.builder("cookbook")
                .instructions("To create or change the recipe, call update_recipe with the complete recipe.")
                .state(StateSchema.builder().key("recipe", "The recipe on the card", JsonType.OBJECT).build())
                .tool(BackendTool.stateTool("update_recipe", "Create or replace the recipe", parametersSchema,
                        "Recipe updated.", Map.of("recipe", "recipe")))
                .predict("recipe", "update_recipe", "recipe")
                .build();
    }

    private static JsonNode parse(String json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
