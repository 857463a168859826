package dev.aguistate.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;

/**
 * Renders the state for the LLM: a system message from a template with {@code {schema}} (the keys' types and
 * descriptions) and {@code {state}} (the JSON, compact because it costs tokens on every round, cut at
 * {@code maxChars} with a marker so the model knows it is incomplete). A free-form state that is still empty has
 * nothing to show, so it gets no message.
 */
public record StatePrompt(String template, int maxChars) {

    public static final String DEFAULT_TEMPLATE = """
            The application's shared state is shown below as JSON between <state> and </state>. The user sees \
            this state in the page and may have edited it since your last turn: treat it as the current truth. \
            Change it only by calling the tools that update it, and when you do, keep the existing data you \
            were not asked to change.
            {schema}
            <state>
            {state}
            </state>""";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The state message, or empty when a free-form state has no keys yet. */
    public Optional<String> message(State state) {
        if (state.schema().freeForm() && state.toJson().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(render(state));
    }

    String render(State state) {
        String json;
        try {
            json = JSON.writeValueAsString(state.toJson());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("state is JSON", e);
        }
        if (json.length() > maxChars) {
            json = json.substring(0, maxChars) + "\n... (truncated: the state is larger than " + maxChars + " characters)";
        }
        return template.replace("{schema}", schemaText(state.schema())).replace("{state}", json);
    }

    private static String schemaText(StateSchema schema) {
        if (schema.freeForm()) {
            return "";
        }
        StringBuilder text = new StringBuilder("The state's keys:");
        for (StateKey key : schema.keys()) {
            text.append("\n- ").append(key.name()).append(" (").append(key.typeDescription()).append(')');
            if (!key.description().isBlank()) {
                text.append(": ").append(key.description());
            }
        }
        return text.toString();
    }
}
