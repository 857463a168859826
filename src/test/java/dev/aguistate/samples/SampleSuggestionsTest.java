package dev.aguistate.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.agent.AgentRegistry;
import dev.aguistate.testing.ClientStateReplay;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.FrontendSample;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.ScriptedDemoProfile;
import dev.aguistate.testing.SseClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every suggestion the sample UI offers ({@code frontend-sample/src/suggestions.json}, the list the page itself
 * shows) does something visible with the scripted demo model, clicked through in the page's order on one thread
 * as a newcomer would: an agent that declares state (the page shows it) changes it (a proposal the server asks about
 * is approved, as the page's Approve button does) or shows a tool's activity (a progress bar in the page); any other
 * agent calls a tool or answers with more than its greeting.
 */
@QuarkusTest
@TestProfile(ScriptedDemoProfile.class)
class SampleSuggestionsTest {

    private final SseClient client = SseClient.forTestServer();

    @Inject
    AgentRegistry agents;

    static Stream<String> sampleAgents() throws IOException {
        return suggestions().keySet().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sampleAgents")
    void everySuggestionDoesSomethingVisible(String agent) throws IOException {
        List<String> suggestions = suggestions().get(agent);
        assertFalse(suggestions.isEmpty(), agent);
        boolean declaresState = !agents.find(agent).orElseThrow().state().freeForm();
        String greeting = new Conversation(agent).send("Hello").text();
        Conversation conversation = new Conversation(agent);
        for (String suggestion : suggestions) {
            JsonNode before = conversation.state.deepCopy();
            Reply reply = conversation.send(suggestion);
            if (declaresState && !reply.showedAnActivity()) {
                assertNotEquals(before, conversation.state, agent + ": \"" + suggestion + "\" left the state as it was "
                        + "and showed no activity; it answered: " + reply.text());
            } else {
                assertTrue(reply.calledATool() || !reply.text().equals(greeting),
                        agent + ": \"" + suggestion + "\" got only the greeting: " + reply.text());
            }
        }
    }

    private static Map<String, List<String>> suggestions() throws IOException {
        JsonNode json = RunRequests.JSON.readTree(
                Files.readString(FrontendSample.DIR.resolve("src").resolve("suggestions.json")));
        Map<String, List<String>> byAgent = new TreeMap<>();
        json.fields().forEachRemaining(e -> {
            List<String> texts = new ArrayList<>();
            e.getValue().forEach(t -> texts.add(t.asText()));
            byAgent.put(e.getKey(), texts);
        });
        return byAgent;
    }

    /** What one suggestion produced: the events of its run, and of the approving run if it asked. */
    private record Reply(List<JsonNode> events) {

        String text() {
            return events.stream().filter(e -> "TEXT_MESSAGE_CONTENT".equals(e.get("type").asText()))
                    .map(e -> e.get("delta").asText()).collect(Collectors.joining());
        }

        boolean calledATool() {
            return events.stream().anyMatch(e -> "TOOL_CALL_START".equals(e.get("type").asText()));
        }

        boolean showedAnActivity() {
            return events.stream().anyMatch(e -> "ACTIVITY_SNAPSHOT".equals(e.get("type").asText()));
        }
    }

    /** One thread of an agent as the sample page drives it: it sends the state it holds and approves proposals. */
    private final class Conversation {

        private final String agent;
        private final String threadId = "thread-" + UUID.randomUUID();
        private JsonNode state = RunRequests.JSON.createObjectNode();

        Conversation(String agent) {
            this.agent = agent;
        }

        Reply send(String text) {
            List<JsonNode> events = new ArrayList<>(run(RunRequests.of(threadId, "run-" + UUID.randomUUID()).user(text)));
            JsonNode outcome = events.get(events.size() - 1).get("outcome");
            if (outcome != null && "interrupt".equals(outcome.get("type").asText())) {
                RunRequests approve = RunRequests.of(threadId, "run-" + UUID.randomUUID());
                ObjectNode answer = approve.body().putArray("resume").addObject();
                answer.put("interruptId", outcome.at("/interrupts/0/id").asText()).put("status", "resolved");
                answer.putObject("payload").put("approved", true);
                events.addAll(run(approve));
            }
            return new Reply(events);
        }

        private List<JsonNode> run(RunRequests request) {
            request.body().set("state", state);
            SseClient.Stream stream = client.run("/agui/" + agent, request.json());
            EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
            assertEquals("RUN_FINISHED", stream.last().get("type").asText(), stream.raw());
            state = ClientStateReplay.of(state, stream.events()).held();
            return stream.events();
        }
    }
}
