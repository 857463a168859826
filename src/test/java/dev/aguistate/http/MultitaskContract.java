package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.store.SharedThreadStoreContract;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StoreProfiles;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmTestBase;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A run request to a thread whose run is still going on ({@code forwardedProps.multitask}), on each thread store. The
 * active run is held at {@link GatedAgent}'s gate, a backend tool that waits until the test opens it, so every step
 * below happens while that run is in progress, without a pause. In every case the thread ends as one transcript.
 */
abstract class MultitaskContract extends StubbedLlmTestBase {

    /** The caller: each store's test server has users (the tests of users share it), and carol is none of theirs. */
    private final SseClient carol = client.sending(StoreProfiles.Users.CAROL);

    private static final String AGENT = "/agui/" + GatedAgent.NAME;

    @AfterEach
    void openTheGate() {
        GatedAgent.open(); // a failed test leaves no tool waiting
    }

    @Test
    void rejectAnswers409AsBefore() throws InterruptedException {
        RunRequests first = gatedRun("A long task");
        try (SseClient.LiveStream active = carol.open(AGENT, first.json())) {
            GatedAgent.awaitReached();

            HttpResponse<String> second = post(RunRequests.of(first.threadId(), "run-2").multitask("reject")
                    .user("me too"));

            assertEquals(409, second.statusCode(), second.body());
            assertEquals("thread_busy", RunRequests.parse(second.body()).get("code").asText());
            GatedAgent.open();
            assertEquals("success", active.readToEnd().get(active.events().size() - 1).at("/outcome/type").asText());
        }
    }

    @Test
    void aStrategyThatIsNoneIs422BeforeAnyStream() {
        HttpResponse<String> answer = post(RunRequests.fresh().multitask("later").user("hi"));

        assertEquals(422, answer.statusCode(), answer.body());
        JsonNode error = RunRequests.parse(answer.body());
        assertEquals("invalid_run_input", error.get("code").asText());
        assertTrue(error.get("message").asText().contains("forwardedProps.multitask"), error.toString());
        assertEquals(0, stub.requests().size());
    }

    @Test
    void enqueueOpensTheStreamAtOnceAndStartsOnTheThreadAsTheActiveRunLeftIt() throws InterruptedException {
        RunRequests first = gatedRun("A long task");
        stub.enqueue(StubResponse.stream().text("Second answer.").build());
        try (SseClient.LiveStream active = carol.open(AGENT, first.json())) {
            GatedAgent.awaitReached();

            // the default strategy: no forwardedProps
            RunRequests second = RunRequests.of(first.threadId(), "run-2").user("And then?");
            try (SseClient.LiveStream queued = carol.open(AGENT, second.json())) {
                assertEquals(200, queued.status(), "accepted while the first run is still at its gate");
                assertEquals(1, stub.requests().size(), "only the first run reached the LLM: the second waits");

                GatedAgent.open();
                List<JsonNode> firstEvents = active.readToEnd();
                assertEquals("success", firstEvents.get(firstEvents.size() - 1).at("/outcome/type").asText());
                List<JsonNode> secondEvents = queued.readToEnd();
                EventStreamVerifier.verify(secondEvents, second.threadId(), second.runId());
                assertEquals("success", secondEvents.get(secondEvents.size() - 1).at("/outcome/type").asText());
            }
        }
        assertTrue(stub.lastRequest().toString().contains("Through the gate."),
                "the second run's LLM request holds the first run's answer: " + stub.lastRequest());
        assertEquals(List.of("A long task", "passed", "Through the gate.", "And then?", "Second answer."),
                contents(first.threadId()));
    }

    @Test
    void queuedRunsRunInArrivalOrderAndOneWhoseClientLeftIsDropped() throws InterruptedException {
        RunRequests first = gatedRun("first");
        stub.enqueue(StubResponse.stream().text("Answer to third.").build());
        stub.enqueue(StubResponse.stream().text("Answer to fourth.").build());
        try (SseClient.LiveStream active = carol.open(AGENT, first.json())) {
            GatedAgent.awaitReached();
            SseClient.LiveStream leaving = carol.open(AGENT, RunRequests.of(first.threadId(), "run-2")
                    .user("second, then gone").json());
            try (SseClient.LiveStream third = carol.open(AGENT, RunRequests.of(first.threadId(), "run-3")
                         .user("third").json());
                 SseClient.LiveStream fourth = carol.open(AGENT, RunRequests.of(first.threadId(), "run-4")
                         .user("fourth").json())) {
                awaitQueued(3);
                leaving.close();
                awaitQueued(2);

                GatedAgent.open();
                assertEquals("RUN_FINISHED", last(active.readToEnd()).get("type").asText());
                assertEquals("Answer to third.", text(third.readToEnd()));
                assertEquals("Answer to fourth.", text(fourth.readToEnd()));
            }
        }
        assertEquals(List.of("first", "passed", "Through the gate.", "third", "Answer to third.", "fourth",
                "Answer to fourth."), contents(first.threadId()), "the request whose client left left no trace");
    }

    @Test
    void pastMaxQueuedARequestIsAnswered429BeforeAnyStream() throws InterruptedException {
        RunRequests first = gatedRun("first");
        List<SseClient.LiveStream> waiting = new ArrayList<>();
        try (SseClient.LiveStream active = carol.open(AGENT, first.json())) {
            GatedAgent.awaitReached();
            for (int i = 0; i < StubbedLlmProfile.MAX_QUEUED; i++) {
                waiting.add(carol.open(AGENT, RunRequests.of(first.threadId(), "run-w" + i).user("w" + i).json()));
            }

            HttpResponse<String> refused = post(RunRequests.of(first.threadId(), "run-over").user("one too many"));

            assertEquals(429, refused.statusCode(), refused.body());
            assertEquals("queue_full", RunRequests.parse(refused.body()).get("code").asText());
            assertTrue(refused.headers().firstValue("Retry-After").isPresent());
            waiting.forEach(SseClient.LiveStream::close);
            awaitQueued(0);
            GatedAgent.open();
            active.readToEnd();
        }
        assertEquals(List.of("first", "passed", "Through the gate."), contents(first.threadId()));
    }

    @Test
    void aQueuedRunCanBeStoppedAndEndsCancelledWithoutATrace() throws InterruptedException {
        RunRequests first = gatedRun("first");
        try (SseClient.LiveStream active = carol.open(AGENT, first.json())) {
            GatedAgent.awaitReached();
            RunRequests second = RunRequests.of(first.threadId(), "run-2").user("never mind");
            try (SseClient.LiveStream queued = carol.open(AGENT, second.json())) {

                HttpResponse<String> stop = carol.post(AGENT + "/stop/" + first.threadId() + "?runId=run-2", "");

                assertEquals("{\"stopped\":true}", stop.body());
                List<JsonNode> events = queued.readToEnd();
                EventStreamVerifier.verify(events, second.threadId(), second.runId());
                assertEquals(List.of("RUN_STARTED", "RUN_FINISHED"), types(events));
                assertEquals("cancelled", last(events).at("/outcome/type").asText());
            }
            GatedAgent.open();
            assertEquals("success", last(active.readToEnd()).at("/outcome/type").asText(),
                    "stopping the waiting run left the active one alone");
        }
        assertEquals(List.of("first", "passed", "Through the gate."), contents(first.threadId()));
    }

    @Test
    void interruptStopsTheActiveRunKeepingWhatItCompletedAndStartsOnIt() throws InterruptedException {
        toTheGate();
        stub.enqueue(StubResponse.stream().text("Changed course.").build());
        RunRequests first = RunRequests.fresh().user("A long task");
        try (SseClient.LiveStream active = carol.open(AGENT, first.json())) {
            GatedAgent.awaitReached();

            RunRequests second = RunRequests.of(first.threadId(), "run-2").multitask("interrupt")
                    .user("Stop, do this instead");
            SseClient.Stream interrupting = carol.run(AGENT, second.json());

            List<JsonNode> stopped = active.readToEnd();
            EventStreamVerifier.verify(stopped, first.threadId(), first.runId());
            assertEquals("cancelled", last(stopped).at("/outcome/type").asText(), "as the stop endpoint ends it");
            EventStreamVerifier.verify(interrupting.events(), second.threadId(), second.runId());
            assertEquals("success", interrupting.last().at("/outcome/type").asText(), interrupting.raw());
        }
        List<String> contents = contents(first.threadId());
        assertEquals("A long task", contents.get(0), "the interrupted run's question is kept: " + contents);
        assertEquals(List.of("Stop, do this instead", "Changed course."),
                contents.subList(contents.size() - 2, contents.size()), contents.toString());
    }

    @Test
    void rollbackStopsTheActiveRunAndRemovesWhatItAddedToTheThread() throws InterruptedException {
        stub.enqueue(StubResponse.stream().text("Hello.").build());
        RunRequests earlier = RunRequests.fresh().user("Hi");
        earlier.body().set("state", RunRequests.parse("{\"mood\":\"calm\"}"));
        assertEquals("success", carol.run(AGENT, earlier.json()).last().at("/outcome/type").asText());
        toTheGate();
        stub.enqueue(StubResponse.stream().text("Starting over.").build());
        RunRequests first = RunRequests.of(earlier.threadId(), "run-rolled-back").user("A long task");
        first.body().set("state", RunRequests.parse("{\"mood\":\"busy\"}"));
        try (SseClient.LiveStream active = carol.open(AGENT, first.json())) {
            GatedAgent.awaitReached();
            assertEquals("busy", stored(first.threadId()).at("/state/mood").asText(),
                    "the run changed the thread's state when it started");

            RunRequests second = RunRequests.of(first.threadId(), "run-2").multitask("rollback").user("Forget that");
            SseClient.Stream rollingBack = carol.run(AGENT, second.json());

            assertEquals("cancelled", last(active.readToEnd()).at("/outcome/type").asText());
            EventStreamVerifier.verify(rollingBack.events(), second.threadId(), second.runId());
            assertEquals("success", rollingBack.last().at("/outcome/type").asText(), rollingBack.raw());
        }
        JsonNode thread = stored(first.threadId());
        assertEquals(List.of("Hi", "Hello.", "Forget that", "Starting over."), contents(first.threadId()),
                "the rolled-back run's question and tool call are gone: " + thread);
        assertEquals("calm", thread.at("/state/mood").asText(), "its state change is undone: " + thread);
    }

    @Test
    void manyClientsAtOnceWithEnqueueEachEndInTheTranscriptExactlyOnce() {
        int clients = StubbedLlmProfile.MAX_QUEUED + 1; // one runs, the rest wait
        stub.setDefault(StubResponse.stream().text("Noted.").build());
        String threadId = RunRequests.fresh().threadId();
        ExecutorService senders = Executors.newFixedThreadPool(clients);
        try {
            List<CompletableFuture<SseClient.Stream>> sent = IntStream.range(0, clients)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> carol.run(AGENT,
                            RunRequests.of(threadId, "run-" + i).user("message " + i).json()), senders))
                    .toList();
            for (int i = 0; i < clients; i++) {
                SseClient.Stream stream = sent.get(i).join();
                EventStreamVerifier.verify(stream.events(), threadId, "run-" + i);
                assertEquals("success", stream.last().at("/outcome/type").asText(), stream.raw());
            }
        } finally {
            senders.shutdownNow();
        }
        JsonNode thread = stored(threadId);
        JsonNode messages = thread.get("messages");
        List<String> users = RunRequests.contents(thread, "user");
        assertEquals(IntStream.range(0, clients).mapToObj(i -> "message " + i).sorted().toList(),
                users.stream().sorted().toList(), "each message once: " + messages);
        List<String> roles = StreamSupport.stream(messages.spliterator(), false).map(m -> m.get("role").asText())
                .toList();
        for (int i = 0; i < roles.size(); i += 2) {
            assertEquals(List.of("user", "assistant"), roles.subList(i, i + 2),
                    "each question followed by its answer, never interleaved: " + messages);
        }
    }

    @Test
    void steerAddsTheMessageToTheActiveRunAfterTheToolResultAndTheSecondStreamJoinsIt() throws InterruptedException {
        RunRequests first = gatedRun("A long task");
        try (SseClient.LiveStream active = carol.open(AGENT, first.json())) {
            GatedAgent.awaitReached();

            RunRequests second = RunRequests.of(first.threadId(), "run-2").multitask("steer").user("Also in French");
            try (SseClient.LiveStream steering = carol.open(AGENT, second.json())) {
                assertEquals(200, steering.status(), "accepted while the first run is at its gate");
                awaitSteered(1);
                GatedAgent.open();

                List<JsonNode> events = active.readToEnd();
                EventStreamVerifier.verify(events, first.threadId(), first.runId());
                assertEquals("success", last(events).at("/outcome/type").asText());
                List<String> types = types(events);
                int result = types.indexOf("TOOL_CALL_RESULT");
                int shown = types.indexOf("MESSAGES_SNAPSHOT");
                assertTrue(result >= 0 && shown > result && shown < types.lastIndexOf("TEXT_MESSAGE_START"),
                        "the message is shown after the tool's result, before the answer: " + types);
                assertTrue(events.get(shown).toString().contains("Also in French"), events.get(shown).toString());

                List<JsonNode> joined = steering.readToEnd();
                EventStreamVerifier.verify(joined, first.threadId(), first.runId());
                // joined as a connect joins: the prelude shows the run so far, then its events, or, should it have
                // ended meanwhile, the prelude to its end
                assertTrue(joined.toString().contains("Also in French") && joined.toString().contains(
                        "Through the gate."), "the second client sees its message and the answer that took it into "
                        + "account: " + joined);
            }
        }
        assertEquals(2, stub.requests().size(), "no run of its own: the message went to the active run");
        String lastRequest = stub.lastRequest().toString();
        assertTrue(lastRequest.indexOf("passed") < lastRequest.indexOf("Also in French"),
                "the LLM reads it after the tool's result: " + lastRequest);
        assertEquals(List.of("A long task", "passed", "Also in French", "Through the gate."),
                contents(first.threadId()));
    }

    @Test
    void aSteeredMessageTheRunHasNoRoundLeftForStartsARunOfItsOwn() throws InterruptedException {
        GatedAgent.close();
        // the round calls the gated tool and a frontend tool: the run ends after the gate, leaving that call to the
        // client, and has no round in which to take the message
        stub.enqueue(StubResponse.stream().toolCall("c1", GatedAgent.TOOL, "{}").toolCall("c2", "show_card", "{}")
                .build());
        stub.enqueue(StubResponse.stream().text("Answered on its own.").build());
        RunRequests first = RunRequests.fresh().tool("show_card", "Show a card", null).user("A long task");
        try (SseClient.LiveStream active = carol.open(AGENT, first.json())) {
            GatedAgent.awaitReached();
            RunRequests second = RunRequests.of(first.threadId(), "run-2").multitask("steer").user("One more thing");
            try (SseClient.LiveStream steering = carol.open(AGENT, second.json())) {
                awaitSteered(1);
                GatedAgent.open();

                List<JsonNode> events = active.readToEnd();
                assertEquals("success", last(events).at("/outcome/type").asText());
                assertTrue(types(events).stream().noneMatch("MESSAGES_SNAPSHOT"::equals), types(events).toString());
                List<JsonNode> own = steering.readToEnd();
                EventStreamVerifier.verify(own, second.threadId(), second.runId());
                assertEquals("Answered on its own.", text(own));
            }
        }
        assertEquals(List.of("A long task", "passed", "One more thing", "Answered on its own."),
                contents(first.threadId()));
    }

    @Test
    void steerToAnIdleThreadIsANormalRun() {
        stub.enqueue(StubResponse.stream().text("Hello.").build());
        RunRequests request = RunRequests.fresh().multitask("steer").user("Hi");

        SseClient.Stream run = carol.run(AGENT, request.json());

        EventStreamVerifier.verify(run.events(), request.threadId(), request.runId());
        assertEquals("success", run.last().at("/outcome/type").asText(), run.raw());
        assertEquals(List.of("Hi", "Hello."), contents(request.threadId()));
    }

    @Test
    void manyClientsAtOnceSteeringAndEnqueuingEachEndInTheTranscriptExactlyOnce() throws InterruptedException {
        int clients = 2 * (StubbedLlmProfile.MAX_QUEUED - 1); // half steer, half wait their turn
        RunRequests first = gatedRun("first");
        stub.setDefault(StubResponse.stream().text("Noted.").build());
        ExecutorService senders = Executors.newFixedThreadPool(clients);
        try (SseClient.LiveStream active = carol.open(AGENT, first.json())) {
            GatedAgent.awaitReached();
            List<CompletableFuture<SseClient.Stream>> sent = IntStream.range(0, clients)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> carol.run(AGENT,
                            RunRequests.of(first.threadId(), "run-" + i).multitask(i % 2 == 0 ? "steer" : "enqueue")
                                    .user("message " + i).json()), senders))
                    .toList();
            awaitSteered(clients / 2);
            awaitQueued(clients / 2);
            GatedAgent.open();
            assertEquals("success", last(active.readToEnd()).at("/outcome/type").asText());
            for (int i = 0; i < clients; i++) {
                SseClient.Stream stream = sent.get(i).join();
                EventStreamVerifier.verify(stream.events(), first.threadId(), i % 2 == 0 ? first.runId() : "run-" + i);
                assertEquals("success", stream.last().at("/outcome/type").asText(), stream.raw());
            }
        } finally {
            senders.shutdownNow();
        }
        List<String> contents = contents(first.threadId());
        assertEquals(IntStream.range(0, clients).mapToObj(i -> "message " + i).sorted().toList(),
                contents.stream().filter(c -> c.startsWith("message ")).sorted().toList(), "each once: " + contents);
        List<String> steered = IntStream.range(0, clients).filter(i -> i % 2 == 0).mapToObj(i -> "message " + i)
                .sorted().toList();
        assertEquals(steered, contents.subList(2, 2 + steered.size()).stream().sorted().toList(),
                "the steered messages follow the tool's result: " + contents);
        assertEquals("Through the gate.", contents.get(2 + steered.size()), contents.toString());
        List<String> queued = contents.subList(3 + steered.size(), contents.size());
        for (int i = 0; i < queued.size(); i += 2) {
            assertTrue(queued.get(i).startsWith("message ") && queued.get(i + 1).equals("Noted."),
                    "each waiting message runs on its own, answered: " + contents);
        }
    }

    @Test
    void capabilitiesNameTheStrategies() {
        HttpResponse<String> capabilities = carol.get(AGENT + "/capabilities");
        assertEquals(200, capabilities.statusCode(), capabilities.body());
        JsonNode multitask = RunRequests.parse(capabilities.body()).at("/custom/multitask");
        assertEquals("enqueue", multitask.get("defaultStrategy").asText());
        assertEquals("[\"reject\",\"enqueue\",\"interrupt\",\"rollback\",\"steer\"]",
                multitask.get("strategies").toString());
    }

    /** A run of the gated agent that calls its tool, waits at the gate, then answers "Through the gate.". */
    private RunRequests gatedRun(String text) {
        toTheGate();
        stub.enqueue(StubResponse.stream().text("Through the gate.").build());
        return RunRequests.fresh().user(text);
    }

    /** The next run's first round calls the gated tool, which waits until the test opens the gate. */
    private void toTheGate() {
        GatedAgent.close();
        stub.enqueue(StubResponse.stream().toolCall("c1", GatedAgent.TOOL, "{}").build());
    }

    private HttpResponse<String> post(RunRequests request) {
        return carol.post(AGENT, request.json(), "Content-Type", "application/json", "Accept", "text/event-stream");
    }

    /** Waits until this server holds {@code count} waiting runs ({@code agui_runs_queued}). */
    private static void awaitQueued(int count) {
        SharedThreadStoreContract.awaitUntil(() -> given().get("/q/metrics").then().extract().asString().lines()
                        .anyMatch(line -> line.equals("agui_runs_queued " + count + ".0")),
                count + " runs waiting");
    }

    /** Waits until {@code count} steered messages wait on this server for their run's next round. */
    private static void awaitSteered(int count) {
        SharedThreadStoreContract.awaitUntil(() -> given().get("/q/metrics").then().extract().asString().lines()
                        .anyMatch(line -> line.equals("agui_runs_steered_waiting " + count + ".0")),
                count + " steered messages waiting");
    }

    /** The stored messages' text, in order: the tool's result, the assistant's words; a tool call has none. */
    private List<String> contents(String threadId) {
        List<String> contents = new ArrayList<>();
        stored(threadId).get("messages").forEach(m -> {
            if (m.hasNonNull("content") && !m.get("content").asText().isEmpty()) {
                contents.add(m.get("content").asText());
            }
        });
        return contents;
    }

    private static JsonNode last(List<JsonNode> events) {
        return events.get(events.size() - 1);
    }

    private static List<String> types(List<JsonNode> events) {
        return events.stream().map(e -> e.get("type").asText()).toList();
    }

    private static String text(List<JsonNode> events) {
        StringBuilder text = new StringBuilder();
        events.stream().filter(e -> e.get("type").asText().equals("TEXT_MESSAGE_CONTENT"))
                .forEach(e -> text.append(e.get("delta").asText()));
        return text.toString();
    }

    /** The thread as {@code GET /threads/{id}} shows it to carol; it must exist. */
    private JsonNode stored(String threadId) {
        HttpResponse<String> thread = carol.get("/threads/" + threadId);
        assertEquals(200, thread.statusCode(), thread.body());
        return RunRequests.parse(thread.body());
    }
}
