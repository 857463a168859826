package dev.aguistate.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The server through upstream faults: a run whose upstream is retrying or silent holds up no other run, a client
 * that stops reading holds up no run (it is disconnected and resumes from its cursor), and what the model says in
 * fields of its own (refusal, reasoning) reaches the client.
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class UpstreamFaultRunTest extends StubbedLlmTestBase {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void whileOneRunWaitsToRetryAnotherIsAnswered() {
        stub.enqueue(StubResponse.error(429, "{\"error\":{\"message\":\"slow down\"}}").withHeader("Retry-After", "2"));
        stub.enqueue(StubResponse.stream().text("second").build());
        stub.enqueue(StubResponse.stream().text("first").build());
        RunRequests first = RunRequests.fresh().user("one");

        try (SseClient.LiveStream waiting = client.open("/agui", first.json())) {
            assertTrue(stub.awaitRequests(1, WAIT));
            SseClient.Stream second = client.run("/agui", RunRequests.fresh().user("two").json());

            assertEquals("RUN_FINISHED", second.last().get("type").asText());
            assertEquals("second", text(second.events()));
            assertEquals(2, stub.requests().size(), "the first run was still waiting to try again");
            waiting.await("RUN_FINISHED");
            EventStreamVerifier.verify(waiting.events(), first.threadId(), first.runId());
            assertEquals("first", text(waiting.events()));
        }
    }

    @Test
    void whileOneRunsUpstreamIsSilentAnotherIsAnswered() {
        stub.enqueue(StubResponse.stream().text("thinking", "never sent").stallAfter(2).build());
        stub.enqueue(StubResponse.stream().text("quick").build());
        RunRequests first = RunRequests.fresh().user("one");

        try (SseClient.LiveStream stalled = client.open("/agui", first.json())) {
            stalled.await("TEXT_MESSAGE_CONTENT");
            SseClient.Stream second = client.run("/agui", RunRequests.fresh().user("two").json());

            assertEquals("RUN_FINISHED", second.last().get("type").asText());
            JsonNode end = stalled.await("RUN_ERROR");
            assertEquals("llm_idle_timeout", end.get("code").asText());
        }
    }

    @Test
    void aClientThatStopsReadingIsDisconnectedWhileItsRunGoesOnAndResumesFromItsCursor() {
        // 32 MB of text: far more than the follow window lets one connection have waiting
        List<String> deltas = new ArrayList<>();
        for (int i = 0; i < 4096; i++) {
            deltas.add(String.format("%08d", i) + "x".repeat(8184));
        }
        stub.enqueue(StubResponse.stream().text(deltas.toArray(String[]::new)).build());
        RunRequests request = RunRequests.fresh().user("a long one");

        List<JsonNode> before;
        String cursor;
        try (SseClient.LiveStream stalled = client.open("/agui", request.json())) {
            stalled.await("TEXT_MESSAGE_CONTENT");
            // the run reads its model to the end while its client reads nothing: a slow client holds no run
            assertTrue(stub.awaitCompletedStreams(1, Duration.ofSeconds(60)), "the upstream was read to its end");
            try {
                stalled.readToEnd(); // what reached it before it was disconnected
            } catch (java.io.UncheckedIOException reset) {
                // the server reset the connection: what was read before stays read
            }
            before = stalled.events();
            List<String> ids = stalled.ids();
            cursor = ids.get(ids.size() - 1);
        }
        assertTrue(before.stream().noneMatch(e -> e.path("type").asText().equals("RUN_FINISHED")),
                "disconnected before the end");

        List<JsonNode> after;
        try (SseClient.LiveStream resumed = client.open("/agui/chat/connect",
                RunRequests.of(request.threadId(), "resume").json(), "Last-Event-ID", cursor)) {
            assertEquals(200, resumed.status());
            after = resumed.readToEnd();
        }
        List<JsonNode> whole = new ArrayList<>(before);
        whole.addAll(after);
        assertEquals("RUN_FINISHED", whole.get(whole.size() - 1).get("type").asText(),
                "resumed after " + cursor + " with " + after.size() + " events, from "
                        + (after.isEmpty() ? "-" : after.get(0).get("type").asText()));
        assertEquals(String.join("", deltas), text(whole), "every piece once, in order");
    }

    @Test
    void aRefusalReachesTheClientAsTheAssistantsText() {
        stub.enqueue(StubResponse.stream().refusal("I can't help", " with that.").build());
        RunRequests request = RunRequests.fresh().user("something forbidden");

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
        assertEquals("I can't help with that.", text(stream.events()));
    }

    @Test
    void reasoningStreamedAsReasoningReachesTheClient() {
        stub.enqueue(StubResponse.stream().reasoning("The user", " greets me.").text("Hello!").build());
        RunRequests request = RunRequests.fresh().user("hi");

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("The user greets me.", stream.ofType("REASONING_MESSAGE_CONTENT").stream()
                .map(e -> e.get("delta").asText()).collect(Collectors.joining()));
        assertEquals("Hello!", text(stream.events()));
    }

    private static String text(List<JsonNode> events) {
        return events.stream().filter(e -> "TEXT_MESSAGE_CONTENT".equals(e.path("type").asText()))
                .map(e -> e.get("delta").asText()).collect(Collectors.joining());
    }
}
