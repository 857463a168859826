package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RequestTokens;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.testing.TestAgents;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A long conversation through the HTTP API against the LLM stub: every request the model receives fits the agent's
 * input budget, keeps the task and the question, and never splits a tool call from its result.
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class LongConversationRunTest extends StubbedLlmTestBase {

    private static final int TURNS = 300;
    private static final String TASK = "Plan a two-week trip through Portugal for a family of four.";

    /** Each call is answered by the tool messages right after its assistant message; no result without its call. */
    static void assertToolCallsAnswered(JsonNode request) {
        Set<String> open = new HashSet<>();
        for (JsonNode message : request.get("messages")) {
            String role = message.get("role").asText();
            if (role.equals("tool")) {
                assertTrue(open.remove(message.get("tool_call_id").asText()), "a result without its call: " + message);
                continue;
            }
            assertTrue(open.isEmpty(), "calls " + open + " unanswered before " + message);
            message.path("tool_calls").forEach(call -> open.add(call.get("id").asText()));
        }
        assertTrue(open.isEmpty(), "calls " + open + " unanswered at the end");
    }

    @Test
    void aThreeHundredTurnThreadStaysWithinTheBudgetOnEveryRun() {
        String threadId = RunRequests.fresh().threadId();
        int requestsSoFar = 0;
        int largest = 0;
        int toolTurns = 0;
        for (int turn = 0; turn < TURNS; turn++) {
            boolean usesTool = turn % 7 == 3;
            if (usesTool) {
                toolTurns++;
                stub.enqueue(StubResponse.stream().toolCall("call-" + turn, "clock", "{}").build());
            }
            stub.enqueue(StubResponse.stream().text("Day " + turn + " is planned: a morning walk, a museum, "
                    + "and dinner by the river.").build());
            String question = turn == 0 ? TASK : "What about day " + turn + "? Please add a restaurant near the hotel.";
            RunRequests request = RunRequests.of(threadId, "run-" + turn).user(question);

            SseClient.Stream stream = client.run("/agui/budgeted", request.json());

            EventStreamVerifier.verify(stream.events(), threadId, request.runId());
            List<JsonNode> requests = stub.requests();
            assertEquals(requestsSoFar + (usesTool ? 2 : 1), requests.size());
            for (JsonNode sent : requests.subList(requestsSoFar, requests.size())) {
                int tokens = RequestTokens.of(sent);
                largest = Math.max(largest, tokens);
                assertTrue(tokens <= TestAgents.SMALL_INPUT_BUDGET, "turn " + turn + ": " + tokens + " tokens");
                assertToolCallsAnswered(sent);
                List<String> asked = RunRequests.contents(sent, "user");
                assertEquals(TASK, asked.get(0), "turn " + turn + ": the task stays");
                assertEquals(question, asked.get(asked.size() - 1), "turn " + turn + ": the question is there");
            }
            requestsSoFar = requests.size();
        }
        assertEquals(2 * TURNS + 2 * toolTurns, storedThread(threadId).get("messages").size(),
                "the stored history stays whole");
        assertTrue(largest > TestAgents.SMALL_INPUT_BUDGET / 2, "the budget is used, not wasted: " + largest);
    }
}
