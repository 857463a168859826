package dev.aguistate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a run's events against the rules the official client enforces ({@code verifyEvents} in
 * {@code @ag-ui/client}) plus the wire rules of our contract. Written from the protocol reference, not from
 * our server's code, so it can catch the server breaking them.
 */
public final class EventStreamVerifier {

    /** Fields that carry free JSON, where {@code null} is a legitimate value. */
    private static final Map<String, Set<String>> NULLABLE = Map.of(
            "STATE_SNAPSHOT", Set.of("snapshot"),
            "RUN_FINISHED", Set.of("result"),
            "CUSTOM", Set.of("value"));

    private EventStreamVerifier() {}

    /** A complete run: RUN_STARTED echoing the ids first, properly nested events, one terminal event last. */
    public static void verify(List<JsonNode> events, String threadId, String runId) {
        if (events.isEmpty()) {
            throw new AssertionError("no events");
        }
        JsonNode first = events.get(0);
        expect("RUN_STARTED".equals(first.path("type").asText()), "first event must be RUN_STARTED: " + first);
        expect(threadId.equals(first.path("threadId").asText()) && runId.equals(first.path("runId").asText()),
                "RUN_STARTED must echo threadId/runId: " + first);
        Set<String> openMessages = new HashSet<>();
        Set<String> openToolCalls = new HashSet<>();
        Set<String> openSteps = new HashSet<>();
        boolean terminated = false;
        for (int i = 0; i < events.size(); i++) {
            JsonNode e = events.get(i);
            String type = e.path("type").asText();
            expect(!terminated, "event after the run ended: " + e);
            noNullFields(e, type);
            switch (type) {
                case "RUN_STARTED" -> expect(i == 0, "RUN_STARTED while a run is active: " + e);
                case "TEXT_MESSAGE_START" -> expect(openMessages.add(id(e, "messageId")), "message already open: " + e);
                case "TEXT_MESSAGE_CONTENT" -> {
                    expect(openMessages.contains(id(e, "messageId")), "content for a message not open: " + e);
                    expect(e.path("delta").isTextual() && !e.path("delta").asText().isEmpty(), "empty delta: " + e);
                }
                case "TEXT_MESSAGE_END" -> expect(openMessages.remove(id(e, "messageId")), "end of a message not open: " + e);
                case "TOOL_CALL_START" -> {
                    expect(openToolCalls.add(id(e, "toolCallId")), "tool call already open: " + e);
                    expect(e.path("toolCallName").isTextual(), "TOOL_CALL_START without a name: " + e);
                    expect(e.path("parentMessageId").isTextual(), "TOOL_CALL_START without parentMessageId: " + e);
                }
                case "TOOL_CALL_ARGS" -> {
                    expect(openToolCalls.contains(id(e, "toolCallId")), "args for a tool call not open: " + e);
                    expect(e.path("delta").isTextual(), "TOOL_CALL_ARGS delta must be a string: " + e);
                }
                case "TOOL_CALL_END" -> expect(openToolCalls.remove(id(e, "toolCallId")), "end of a tool call not open: " + e);
                case "TOOL_CALL_RESULT" -> {
                    // AG-UI 1.0: a string or content parts (an MCP server's image); older clients get a string
                    expect(e.path("content").isTextual() || e.path("content").isArray() && e.path("content")
                            .size() > 0, "TOOL_CALL_RESULT.content must be a string or content parts: " + e);
                    expect(e.path("messageId").isTextual() && e.path("toolCallId").isTextual(), "incomplete result: " + e);
                }
                case "STEP_STARTED" -> expect(openSteps.add(id(e, "stepName")), "step already active: " + e);
                case "STEP_FINISHED" -> expect(openSteps.remove(id(e, "stepName")), "step not active: " + e);
                case "RUN_FINISHED" -> {
                    expect(openSteps.isEmpty() && openMessages.isEmpty() && openToolCalls.isEmpty(),
                            "RUN_FINISHED with open steps/messages/tool calls: " + openSteps + openMessages + openToolCalls);
                    expect(threadId.equals(e.path("threadId").asText()) && runId.equals(e.path("runId").asText()),
                            "RUN_FINISHED must echo threadId/runId: " + e);
                    terminated = true;
                }
                case "RUN_ERROR" -> {
                    expect(e.path("message").isTextual(), "RUN_ERROR without message: " + e);
                    terminated = true;
                }
                default -> { }
            }
        }
        expect(terminated, "the stream ended without RUN_FINISHED or RUN_ERROR");
    }

    private static void noNullFields(JsonNode event, String type) {
        Set<String> nullable = NULLABLE.getOrDefault(type, Set.of());
        for (Iterator<Map.Entry<String, JsonNode>> it = event.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            expect(!field.getValue().isNull() || nullable.contains(field.getKey()),
                    "optional field written as null (the client rejects it): " + field.getKey() + " in " + event);
        }
    }

    private static String id(JsonNode event, String field) {
        expect(event.path(field).isTextual(), field + " missing: " + event);
        return event.get(field).asText();
    }

    private static void expect(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
