package dev.aguistate.session;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
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
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Runs that outlive their connection, over real HTTP on one server with the in-memory store: a run going on after
 * its client left, resumed from a cursor; a join without a cursor; stop; what a disconnect does by default. (The
 * replica ITs do the same across two servers on Redis and PostgreSQL.)
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class DetachedRunsTest extends StubbedLlmTestBase {

    private static final String AGENT = "/agui/notebook";
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final List<String> CHUNKS = IntStream.range(0, 40).mapToObj(i -> "w" + i + " ").toList();
    private static final String FULL_TEXT = String.join("", CHUNKS);

    /** An answer that streams for a while: long enough to leave, join or stop in its middle. */
    private void enqueueSlowAnswer() {
        stub.enqueue(StubResponse.stream().text(CHUNKS.toArray(String[]::new))
                .delayBetweenChunks(Duration.ofMillis(25)).build());
    }

    private static RunRequests continuing(RunRequests request) {
        request.body().putObject("forwardedProps").put("onDisconnect", "continue");
        return request;
    }

    private static String text(List<JsonNode> events) {
        return events.stream().filter(e -> e.path("type").asText().equals("TEXT_MESSAGE_CONTENT"))
                .map(e -> e.get("delta").asText()).collect(Collectors.joining());
    }

    /** The assistant's text a client holds after these events: the prelude's complete messages, then the deltas. */
    private static String answered(List<JsonNode> events) {
        StringBuilder text = new StringBuilder();
        events.stream().filter(e -> e.path("type").asText().equals("MESSAGES_SNAPSHOT"))
                .flatMap(e -> java.util.stream.StreamSupport.stream(e.get("messages").spliterator(), false))
                .filter(m -> m.path("role").asText().equals("assistant"))
                .forEach(m -> text.append(m.path("content").asText()));
        return text + text(events);
    }

    private SseClient.LiveStream connect(RunRequests thread, String... headers) {
        return client.open(AGENT + "/connect", RunRequests.of(thread.threadId(), "connect-" + thread.runId()).json(),
                headers);
    }

    @Test
    void aContinuingRunOutlivesItsClientAndACursorResumesExactlyAfterIt() {
        enqueueSlowAnswer();
        RunRequests request = continuing(RunRequests.fresh().user("write a long line"));
        List<JsonNode> before;
        String cursor;
        try (SseClient.LiveStream stream = client.open(AGENT, request.json())) {
            stream.readUntil(e -> e.path("type").asText().equals("TEXT_MESSAGE_CONTENT")
                    && e.get("delta").asText().equals("w5 "));
            before = stream.events();
            cursor = stream.ids().get(stream.ids().size() - 1);
        }
        String run = cursor.substring(0, cursor.indexOf('.') + 1);
        assertEquals(run + before.size(), cursor, "ids count the run's events from 1");

        List<JsonNode> after;
        List<String> afterIds;
        try (SseClient.LiveStream resumed = connect(request, "Last-Event-ID", cursor)) {
            after = resumed.readToEnd();
            afterIds = resumed.ids();
        }

        assertEquals(run + (before.size() + 1), afterIds.get(0), "exactly the events after it");
        List<JsonNode> whole = new ArrayList<>(before);
        whole.addAll(after);
        EventStreamVerifier.verify(whole, request.threadId(), request.runId());
        assertEquals(FULL_TEXT, text(whole));
        JsonNode thread = storedThread(request.threadId());
        assertEquals(FULL_TEXT, thread.at("/messages/1/content").asText(), "the run finished without its client");
        assertEquals("success", thread.at("/lastRun/outcome").asText());
    }

    @Test
    void aCursorOfTheOlderFormRunIdColonSeqStillResumesExactlyAfterIt() {
        enqueueSlowAnswer();
        RunRequests request = continuing(RunRequests.fresh().user("write a long line"));
        List<JsonNode> before;
        try (SseClient.LiveStream stream = client.open(AGENT, request.json())) {
            stream.readUntil(e -> e.path("type").asText().equals("TEXT_MESSAGE_CONTENT")
                    && e.get("delta").asText().equals("w5 "));
            before = stream.events();
        }

        List<JsonNode> after;
        try (SseClient.LiveStream resumed = connect(request, "Last-Event-ID", request.runId() + ":" + before.size())) {
            after = resumed.readToEnd();
        }

        List<JsonNode> whole = new ArrayList<>(before);
        whole.addAll(after);
        EventStreamVerifier.verify(whole, request.threadId(), request.runId());
        assertEquals(FULL_TEXT, text(whole), "a client that read ids before the upgrade loses and repeats nothing");
    }

    @Test
    void aCursorOfAnEarlierRunOfTheThreadNeverResumesALaterOneOfTheSameRunId() {
        stub.enqueue(StubResponse.stream().text("first ", "answer").build());
        RunRequests first = RunRequests.fresh().user("say something");
        String earlier;
        try (SseClient.LiveStream stream = client.open(AGENT, first.json())) {
            stream.readToEnd();
            earlier = stream.ids().get(2);
        }
        enqueueSlowAnswer();
        RunRequests second = continuing(RunRequests.of(first.threadId(), first.runId()).user("write a long line"));
        try (SseClient.LiveStream owner = client.open(AGENT, second.json())) {
            owner.readUntil(e -> e.path("type").asText().equals("TEXT_MESSAGE_CONTENT")
                    && e.get("delta").asText().equals("w5 "));

            List<JsonNode> joined;
            try (SseClient.LiveStream joiner = connect(second, "Last-Event-ID", earlier)) {
                joined = joiner.readToEnd();
            }

            assertEquals(List.of("RUN_STARTED", "MESSAGES_SNAPSHOT"), joined.subList(0, 2).stream()
                    .map(e -> e.get("type").asText()).toList(),
                    "the later run's join prelude, not its events after the earlier run's third: " + earlier);
            EventStreamVerifier.verify(joined, second.threadId(), second.runId());
            assertEquals(FULL_TEXT, text(joined));
            owner.readToEnd();
        }
    }

    @Test
    void aClientJoiningALiveRunGetsAPreludeThenTheLiveEvents() {
        enqueueSlowAnswer();
        RunRequests request = RunRequests.fresh().user("write a long line");
        try (SseClient.LiveStream owner = client.open(AGENT, request.json())) {
            owner.readUntil(e -> e.path("type").asText().equals("TEXT_MESSAGE_CONTENT")
                    && e.get("delta").asText().equals("w3 "));

            List<JsonNode> joined;
            try (SseClient.LiveStream joiner = connect(request)) {
                joined = joiner.readToEnd();
            }

            EventStreamVerifier.verify(joined, request.threadId(), request.runId());
            assertEquals(List.of("RUN_STARTED", "MESSAGES_SNAPSHOT", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"),
                    joined.subList(0, 4).stream().map(e -> e.get("type").asText()).toList());
            assertEquals("write a long line", joined.get(1).at("/messages/0/content").asText());
            assertEquals(FULL_TEXT, text(joined), "what it had so far, then the rest as it came");
            assertEquals("RUN_FINISHED", joined.get(joined.size() - 1).get("type").asText());
            assertEquals(FULL_TEXT, text(owner.readToEnd()));
        }
    }

    @Test
    void aCursorBeyondTheRunIsAnsweredAsAnUnknownOneWhileItRunsAndOnceItEnded() {
        enqueueSlowAnswer();
        RunRequests request = RunRequests.fresh().user("write a long line");
        String beyond = request.runId() + ":999999";
        try (SseClient.LiveStream owner = client.open(AGENT, request.json())) {
            owner.readUntil(e -> e.path("type").asText().equals("TEXT_MESSAGE_CONTENT")
                    && e.get("delta").asText().equals("w3 "));

            List<JsonNode> joined = assertTimeoutPreemptively(BOUND, () -> {
                try (SseClient.LiveStream joiner = connect(request, "Last-Event-ID", beyond)) {
                    return joiner.readToEnd();
                }
            }, "the connection follows the run to its end, as a join does");

            EventStreamVerifier.verify(joined, request.threadId(), request.runId());
            assertEquals(List.of("RUN_STARTED", "MESSAGES_SNAPSHOT"), joined.subList(0, 2).stream()
                    .map(e -> e.get("type").asText()).toList(), "the join prelude");
            // the cursor is waited for (agui.store.timeout) before it counts as unknown: the run may end meanwhile
            assertEquals(FULL_TEXT, answered(joined), "what the run had answered, in the prelude's messages or after");
            assertEquals("RUN_FINISHED", joined.get(joined.size() - 1).get("type").asText());
            owner.readToEnd();
        }
        List<JsonNode> restated = assertTimeoutPreemptively(BOUND, () -> {
            try (SseClient.LiveStream later = connect(request, "Last-Event-ID", beyond)) {
                return later.readToEnd();
            }
        });
        assertEquals(List.of("RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"),
                restated.stream().map(e -> e.get("type").asText()).toList(), "the run ended: the thread restated");
    }

    @Test
    void aStoppedRunEndsCancelledForAOneZeroClientAndInRunErrorCancelledForAnOlderOneJoiningIt() {
        stub.enqueue(StubResponse.stream().text("Once", " upon", " a time").stallAfter(2).build());
        RunRequests request = RunRequests.fresh().user("tell a story");
        try (SseClient.LiveStream owner = client.open(AGENT, request.json());
             SseClient.LiveStream older = client.open(AGENT + "/connect",
                     RunRequests.of(request.threadId(), "connect-" + request.runId()).beforeOneZero().json())) {
            owner.await("TEXT_MESSAGE_CONTENT");
            older.await("RUN_STARTED");
            assertEquals(200, client.post(AGENT + "/stop/" + request.threadId(), new byte[0]).statusCode());

            List<JsonNode> ownerEvents = owner.readToEnd();
            assertEquals(RunRequests.parse("{\"type\":\"cancelled\"}"), ownerEvents.get(ownerEvents.size() - 1).get("outcome"));
            List<JsonNode> olderEvents = older.readToEnd();
            assertEquals(RunRequests.parse("{\"type\":\"RUN_ERROR\",\"message\":\"The run was stopped.\",\"code\":\"cancelled\"}"),
                    olderEvents.get(olderEvents.size() - 1));
            assertTrue(olderEvents.stream().noneMatch(e -> e.get("type").asText().equals("RUN_FINISHED")));
        }
        assertEquals("cancelled", storedThread(request.threadId()).at("/lastRun/outcome").asText(),
                "what the thread keeps is the run's one truth");
    }

    @Test
    void theStopEndpointEndsTheRunCancelledForEveryConnectionAndClosesTheModelCall() {
        stub.enqueue(StubResponse.stream().text("Once", " upon", " a time").stallAfter(2).build());
        RunRequests request = RunRequests.fresh().user("tell a story");
        try (SseClient.LiveStream owner = client.open(AGENT, request.json());
             SseClient.LiveStream joiner = connect(request)) {
            owner.await("TEXT_MESSAGE_CONTENT");
            joiner.await("RUN_STARTED");

            HttpResponse<String> stopped = client.post(AGENT + "/stop/" + request.threadId(), new byte[0]);

            assertEquals(200, stopped.statusCode());
            assertEquals(RunRequests.parse("{\"stopped\":true}"), RunRequests.parse(stopped.body()));
            for (SseClient.LiveStream stream : List.of(owner, joiner)) {
                List<JsonNode> events = stream.readToEnd();
                JsonNode last = events.get(events.size() - 1);
                assertEquals("RUN_FINISHED", last.get("type").asText());
                assertEquals("cancelled", last.at("/outcome/type").asText());
            }
            EventStreamVerifier.verify(owner.events(), request.threadId(), request.runId());
        }
        assertTrue(stub.awaitClientDisconnect(BOUND), "the model call is closed");
        JsonNode thread = storedThread(request.threadId());
        assertEquals("cancelled", thread.at("/lastRun/outcome").asText());
        assertEquals(1, thread.get("messages").size(), "the question is kept; the cut answer is not");
        HttpResponse<String> again = client.post(AGENT + "/stop/" + request.threadId(), new byte[0]);
        assertEquals(RunRequests.parse("{\"stopped\":false}"), RunRequests.parse(again.body()));
    }

    @Test
    void byDefaultAClientThatLeavesStopsItsRun() {
        stub.enqueue(StubResponse.stream().text("Once", " upon", " a time").stallAfter(2).build());
        RunRequests request = RunRequests.fresh().user("tell a story");
        try (SseClient.LiveStream stream = client.open(AGENT, request.json())) {
            stream.await("TEXT_MESSAGE_CONTENT");
        }

        assertTrue(stub.awaitClientDisconnect(BOUND), "the model call is closed");
        JsonNode thread = awaitLastRun(request.threadId());
        assertEquals("cancelled", thread.at("/lastRun/outcome").asText());
    }

    @Test
    void connectingWhenNoRunIsLiveRestatesTheThread() {
        stub.enqueue(StubResponse.stream().text("Hello.").build());
        RunRequests request = RunRequests.fresh().user("hi");
        request.body().set("state", RunRequests.parse("{\"title\":\"Greetings\"}"));
        client.run(AGENT, request.json());

        List<JsonNode> events = connectOnceTheRunIsOver(request);

        EventStreamVerifier.verify(events, request.threadId(), "connect-" + request.runId());
        assertEquals(List.of("RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"),
                events.stream().map(e -> e.get("type").asText()).toList());
        assertEquals(2, events.get(1).get("messages").size());
        assertEquals("Greetings", events.get(2).at("/snapshot/title").asText());
    }

    @Test
    void connectingToAThreadNobodyStartedOrOneDeletedRestatesItUnderItsId() {
        RunRequests unknown = RunRequests.fresh();
        stub.enqueue(StubResponse.stream().text("Hello.").build());
        RunRequests deleted = RunRequests.fresh().user("hi");
        client.run(AGENT, deleted.json());
        assertEquals(204, given().delete("/threads/" + deleted.threadId()).statusCode());

        for (RunRequests thread : List.of(unknown, deleted)) {
            List<JsonNode> events;
            try (SseClient.LiveStream stream = connect(thread)) {
                events = stream.readToEnd();
            }

            EventStreamVerifier.verify(events, thread.threadId(), "connect-" + thread.runId());
            assertEquals(List.of("RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"),
                    events.stream().map(e -> e.get("type").asText()).toList());
            assertEquals(0, events.get(1).get("messages").size(), "nothing is stored: " + events);
        }
    }

    @Test
    void anUnknownDisconnectPolicyIsRefusedBeforeTheStream() {
        RunRequests request = RunRequests.fresh().user("hi");
        request.body().putObject("forwardedProps").put("onDisconnect", "linger");

        HttpResponse<String> response = client.post(AGENT, request.json().getBytes(),
                "Content-Type", "application/json");

        assertEquals(422, response.statusCode());
        assertEquals("invalid_run_input", RunRequests.parse(response.body()).get("code").asText());
        assertTrue(stub.requests().isEmpty(), "no LLM call");
    }

    /** The thread once its run recorded how it ended; runs end on their own after their client left. */
    /**
     * Connects until the run is over on the server: it stays live after its client read the terminal event until
     * its log is saved to the end, and a connect meanwhile joins it (verified here as the whole run) rather than
     * restating the thread.
     */
    private List<JsonNode> connectOnceTheRunIsOver(RunRequests run) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (true) {
            try (SseClient.LiveStream stream = connect(run)) {
                List<JsonNode> events = stream.readToEnd();
                if (!events.get(0).path("runId").asText().equals(run.runId())) {
                    assertTrue(stream.ids().stream().allMatch(id -> id == null), "a restatement is no run to resume");
                    return events;
                }
                EventStreamVerifier.verify(events, run.threadId(), run.runId());
                assertTrue(System.nanoTime() < deadline, "the run was still live after " + BOUND);
            }
        }
    }

    private static JsonNode awaitLastRun(String threadId) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        JsonNode thread = storedThread(threadId);
        while (thread.path("lastRun").isMissingNode() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            thread = storedThread(threadId);
        }
        return thread;
    }
}
