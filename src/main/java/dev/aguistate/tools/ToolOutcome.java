package dev.aguistate.tools;

import com.fasterxml.jackson.databind.JsonNode;

/** What a backend tool call produced: its text for the LLM and the client, or why it failed. */
public sealed interface ToolOutcome {

    /** The text sent as {@code TOOL_CALL_RESULT.content} and to the LLM. */
    String content();

    /** {@code value} is the result as JSON, for {@code outputsToState}. */
    record Success(String content, JsonNode value) implements ToolOutcome {}

    /** A failure the LLM is told about, so it can correct itself; {@code content} says what went wrong. */
    record Failure(ToolFailure failure) implements ToolOutcome {
        public String content() {
            return "Error: " + failure.getMessage();
        }
    }
}
