package dev.aguistate.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class StatePromptTest {

    private static final StateSchema SCHEMA = StateSchema.builder()
            .key("title", "The document's title", JsonType.STRING)
            .key("tags", null, JsonType.ARRAY, JsonType.NULL)
            .build();

    @Test
    void aCustomTemplateGetsTheSchemaAndTheState() {
        State state = new State(SCHEMA, JsonNodeFactory.instance.objectNode().put("title", "Plans"));

        String text = new StatePrompt("Schema:\n{schema}\nState: {state}", 1000).render(state);

        assertEquals("""
                Schema:
                The state's keys:
                - title (string): The document's title
                - tags (array or null)
                State: {"title":"Plans"}""", text);
    }

    @Test
    void largeStateIsCutWithAMarkerSoTheModelKnows() {
        State state = new State(SCHEMA, JsonNodeFactory.instance.objectNode().put("title", "x".repeat(500)));

        String text = new StatePrompt("{state}", 100).render(state);

        assertTrue(text.startsWith("{\"title\":\"xxx"), text);
        assertTrue(text.endsWith("... (truncated: the state is larger than 100 characters)"), text);
        assertEquals(100 + "\n... (truncated: the state is larger than 100 characters)".length(), text.length());
    }

    @Test
    void aFreeFormStateHasNoSchemaText() {
        State state = new State(StateSchema.FREE_FORM, JsonNodeFactory.instance.objectNode().put("any", 1));

        assertEquals("[] {\"any\":1}", new StatePrompt("[{schema}] {state}", 1000).render(state));
    }

    @Test
    void anEmptyFreeFormStateGetsNoMessageButAnEmptyDeclaredOneDoes() {
        StatePrompt prompt = new StatePrompt("{schema} {state}", 1000);

        assertTrue(prompt.message(State.empty(StateSchema.FREE_FORM)).isEmpty());
        assertTrue(prompt.message(State.empty(SCHEMA)).orElseThrow().contains("- title (string)"));
    }
}
