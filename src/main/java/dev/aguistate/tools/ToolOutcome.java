package dev.aguistate.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.MessageContent;

/** What a backend tool call produced: its result for the LLM and the client, or why it failed. */
public sealed interface ToolOutcome {

    /** What {@code TOOL_CALL_RESULT.content} and the tool message carry: text, or (AG-UI 1.0) content parts. */
    MessageContent content();

    /** {@code value} is the result as JSON, for {@code outputsToState}. */
    record Success(MessageContent content, JsonNode value) implements ToolOutcome {
        public Success(String text, JsonNode value) {
            this(new MessageContent.Text(text), value);
        }
    }

    /** A failure the LLM is told about, so it can correct itself; {@code content} says what went wrong. */
    record Failure(ToolFailure failure) implements ToolOutcome {
        public MessageContent content() {
            return new MessageContent.Text("Error: " + failure.getMessage());
        }
    }
}
