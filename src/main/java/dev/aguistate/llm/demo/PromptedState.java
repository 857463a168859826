package dev.aguistate.llm.demo;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The shared state as the request shows it to the model: the JSON object between {@code <state>} and
 * {@code </state>} in a system message, as the default state prompt renders it. A state the model cannot read
 * whole gives nothing: a custom {@code agui.state.prompt-template} without those markers, or a state cut short
 * with a "... (truncated" marker, which is never valid JSON.
 */
final class PromptedState {

    private static final String OPEN = "<state>";
    private static final String CLOSE = "</state>";
    private static final ObjectReader STRICT_JSON = new ObjectMapper().readerFor(JsonNode.class)
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private PromptedState() {
    }

    /** The state in the latest system message that holds a readable one, if any. */
    static Optional<ObjectNode> in(List<ChatMessage> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof SystemMessage system) {
                Optional<ObjectNode> state = in(system.text());
                if (state.isPresent()) {
                    return state;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The template's own text may name the markers before the block ("between &lt;state&gt; and &lt;/state&gt;"),
     * so every opening marker is tried against the last closing one.
     */
    private static Optional<ObjectNode> in(String text) {
        int close = text.lastIndexOf(CLOSE);
        for (int open = text.indexOf(OPEN); open >= 0 && open < close; open = text.indexOf(OPEN, open + 1)) {
            try {
                if (STRICT_JSON.readTree(text.substring(open + OPEN.length(), close)) instanceof ObjectNode state) {
                    return Optional.of(state);
                }
            } catch (IOException notTheBlock) {
                // prose between the markers, or a truncated state: try the next opening marker
            }
        }
        return Optional.empty();
    }
}
