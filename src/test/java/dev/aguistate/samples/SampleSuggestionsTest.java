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
import dev.aguistate.testing.SideBySide;
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
import java.util.concurrent.CompletableFuture;
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

    /**
     * Every agent's clicks, started for all agents at once by the first test and awaited by each: a click waits
     * mostly for the demo model, paced as a real one streams, so one agent after the other would take the sum of
     * their times where side by side they take the longest one's. Each conversation is a thread of its own on the
     * server, and no agent's sees another's.
     */
    private static Map<String, CompletableFuture<ClickedThrough>> clickedThrough;

    @ParameterizedTest(name = "{0}")
    @MethodSource("sampleAgents")
    void everySuggestionDoesSomethingVisible(String agent) throws Exception {
        ClickedThrough clicked = SideBySide.await(clickedThrough(client).get(agent));
        assertFalse(clicked.steps().isEmpty(), agent);
        boolean declaresState = !agents.find(agent).orElseThrow().state().freeForm();
        String greeting = clicked.greeting().text();
        for (Step step : clicked.steps()) {
            Reply reply = step.reply();
            if (declaresState && !reply.showedAnActivity()) {
                assertNotEquals(step.before(), step.after(), agent + ": \"" + step.suggestion() + "\" left the state "
                        + "as it was and showed no activity; it answered: " + reply.text());
            } else {
                assertTrue(reply.calledATool() || !reply.text().equals(greeting),
                        agent + ": \"" + step.suggestion() + "\" got only the greeting: " + reply.text());
            }
        }
    }

    private static synchronized Map<String, CompletableFuture<ClickedThrough>> clickedThrough(SseClient client)
            throws IOException {
        if (clickedThrough == null) {
            Map<String, CompletableFuture<ClickedThrough>> started = new TreeMap<>();
            suggestions().forEach((agent, texts) -> {
                CompletableFuture<Reply> greeting = SideBySide.start(() -> new Conversation(client, agent).send("Hello"));
                CompletableFuture<List<Step>> steps = SideBySide.start(
                        () -> new Conversation(client, agent).clickThrough(texts));
                started.put(agent, greeting.thenCombine(steps, ClickedThrough::new));
            });
            clickedThrough = started;
        }
        return clickedThrough;
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

    /** An agent's greeting, and what each of its suggestions did, in the page's order on one thread. */
    private record ClickedThrough(Reply greeting, List<Step> steps) {}

    /** A suggestion sent: the state the page held before and after it, and the reply. */
    private record Step(String suggestion, JsonNode before, JsonNode after, Reply reply) {}

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
    private static final class Conversation {

        private final SseClient client;
        private final String agent;
        private final String threadId = "thread-" + UUID.randomUUID();
        private JsonNode state = RunRequests.JSON.createObjectNode();

        Conversation(SseClient client, String agent) {
            this.client = client;
            this.agent = agent;
        }

        List<Step> clickThrough(List<String> suggestions) {
            List<Step> steps = new ArrayList<>();
            for (String suggestion : suggestions) {
                JsonNode before = state.deepCopy();
                Reply reply = send(suggestion);
                steps.add(new Step(suggestion, before, state.deepCopy(), reply));
            }
            return steps;
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
