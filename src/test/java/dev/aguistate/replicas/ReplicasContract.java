package dev.aguistate.replicas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.FrontendSample;
import dev.aguistate.testing.OpenAiStub;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.WebhookReceiver;
import dev.aguistate.testing.WebhookSignatures;
import dev.aguistate.store.StoreServer;
import io.vertx.mutiny.core.Vertx;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Several replicas behind a load balancer, for real: two (in one test three) packaged servers, each a JVM of its
 * own, share one thread store and one scripted LLM ({@link OpenAiStub}). A thread moves between them with its
 * state, one run per thread holds across them, and a replica killed mid-run neither damages the thread nor blocks
 * it for longer than its claim's time to live, and a run's outcome reaches the run webhook both have once. A subclass
 * names the store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
abstract class ReplicasContract {

    private static final String AGENT = "/agui/document";
    private static final String CONNECT = AGENT + "/connect";
    /** The run claim of the replicas that live through the class; far longer than any of its runs. */
    private static final Duration LOCK_TTL = Duration.ofMinutes(5);
    /** The run claim of the replica that is killed: short, so the test sees it lapse; long enough to see it held. */
    private static final Duration DOOMED_LOCK_TTL = Duration.ofSeconds(5);
    /** How long a replica may take to see a claim released or lapsed. */
    private static final Duration CLAIM_DEADLINE = Duration.ofSeconds(30);
    /** A slow answer's pace: its 40 fragments take 4 s, time for a client to leave and come back mid-run. */
    private static final Duration FRAGMENT_PAUSE = Duration.ofMillis(100);
    /** How often a test asks whether a claim has lapsed. */
    private static final Duration CLAIM_POLL = Duration.ofMillis(200);
    /** How many times slower than {@link #FRAGMENT_PAUSE} the round a message is steered into writes: 8 s. */
    private static final int STEER_PACE = 2;
    private static final List<String> LONG_ANSWER = IntStream.range(0, 40).mapToObj(i -> "word" + i + " ").toList();
    /** The secret of the run webhook every replica has ({@code agui.webhooks.runs}). */
    private static final String WEBHOOK_SECRET = "whsec_" + Base64.getEncoder()
            .encodeToString("the secret of the replicas' one webhook".getBytes(StandardCharsets.UTF_8));

    @RegisterExtension
    final InstanceLogs logs = new InstanceLogs();

    private OpenAiStub stub;
    private WebhookReceiver webhooks;
    private ServerInstance a;
    private ServerInstance b;

    /** Probes the store's server; {@link StoreServer#probe} fails or skips when it does not answer. */
    protected abstract StoreServer probe(Vertx vertx);

    /** {@code agui.store.*} for a replica using this store. */
    protected abstract Map<String, String> storeProperties();

    @BeforeAll
    void startReplicas() {
        Vertx vertx = Vertx.vertx();
        try {
            probe(vertx).assumeReachable();
        } finally {
            vertx.closeAndAwait();
        }
        stub = OpenAiStub.start();
        webhooks = WebhookReceiver.start();
        a = logs.watch(ServerInstance.launch("a", replicaProperties(LOCK_TTL)));
        b = logs.watch(ServerInstance.launch("b", replicaProperties(LOCK_TTL)));
        a.awaitReady();
        b.awaitReady();
    }

    @BeforeEach
    void forgetEarlierScripts() {
        stub.reset();
    }

    @AfterAll
    void stopReplicas() {
        for (AutoCloseable running : new AutoCloseable[] {a, b, stub, webhooks}) {
            closeQuietly(running);
        }
    }

    @Test
    void aThreadBegunOnOneReplicaContinuesOnAnotherWithItsState() {
        String document = "# Plan\n\nWritten on replica A.";
        stub.enqueue(writeDocument(document).build());
        stub.enqueue(StubResponse.stream().text("I wrote the plan.").build());
        RunRequests first = RunRequests.fresh().user("Write a plan");
        finished(a.client().run(AGENT, first.json()), first);

        stub.enqueue(StubResponse.stream().text("Welcome back.").build());
        RunRequests next = continuation(first.threadId(), "I am back"); // a page that sends only its new message
        SseClient.Stream onB = finished(b.client().run(AGENT, next.json()), next);

        List<JsonNode> snapshots = onB.ofType("MESSAGES_SNAPSHOT");
        assertEquals(List.of("user", "assistant", "tool", "assistant", "user"),
                snapshots.get(snapshots.size() - 1).get("messages").findValuesAsText("role"), "A's history, on B");
        assertEquals(document, onB.ofType("STATE_SNAPSHOT").get(0).at("/snapshot/document").asText(),
                "A's state, on B");
        assertTrue(systemMessages(stub.lastRequest()).contains("Written on replica A."),
                "B's LLM request shows A's state: " + stub.lastRequest());
        JsonNode thread = thread(a, first.threadId());
        // each run commits at its start and after each round of tools: count nothing, compare the two views
        assertEquals(thread(b, first.threadId()).get("version"), thread.get("version"), "A sees B's commit: " + thread);
        assertEquals("Welcome back.", thread.at("/messages/5/content").asText(), "A sees B's commit: " + thread);
    }

    @Test
    void aRunOnAnotherReplicaWhileTheThreadIsRunningIsRefusedWith409() {
        RunRequests first = RunRequests.fresh().user("A long task");
        try (SseClient.LiveStream onA = stalledOnA(first)) {

            HttpResponse<String> onB = b.client().post(AGENT,
                    continuation(first.threadId(), "Me too").multitask("reject").json(),
                    "Content-Type", "application/json", "Accept", "text/event-stream");

            assertEquals(409, onB.statusCode(), onB.body());
            assertEquals("application/json", onB.headers().firstValue("Content-Type").orElse("").split(";")[0]);
            JsonNode error = RunRequests.parse(onB.body());
            assertEquals(409, error.get("status").asInt());
            assertEquals("thread_busy", error.get("code").asText());
            assertFalse(error.get("message").asText().isBlank());
            assertEquals(1, stub.requests().size(), "the refused run never reached the LLM");
        }
        assertTrue(stub.awaitClientDisconnect(CLAIM_DEADLINE), "A cancels its LLM call when its client goes away");

        stub.enqueue(StubResponse.stream().text("Free again.").build());
        RunRequests next = continuation(first.threadId(), "Now?");
        finished(runOnceFree(b, next), next);
    }

    @Test
    void aRunEnqueuedOnAnotherReplicaOpensAtOnceAndStartsOnTheThreadTheActiveRunLeft() {
        stub.enqueue(slowly(LONG_ANSWER).build());
        stub.enqueue(StubResponse.stream().text("Queued answer.").build());
        RunRequests first = RunRequests.fresh().user("A long task");
        try (SseClient.LiveStream onA = a.client().open(AGENT, first.json())) {
            onA.await("TEXT_MESSAGE_CONTENT");

            RunRequests queued = continuation(first.threadId(), "Then this").multitask("enqueue");
            try (SseClient.LiveStream onB = b.client().open(AGENT, queued.json())) {
                assertEquals(200, onB.status(), "accepted on B while A's run goes on");

                finishedLive(onA, first);
                finishedLive(onB, queued);
            }
        }
        assertTrue(stub.lastRequest().toString().contains("word39"),
                "B's run started once A's had ended, on the thread as A left it: " + stub.lastRequest());
        JsonNode messages = thread(a, first.threadId()).get("messages");
        List<String> contents = messages.findValuesAsText("content");
        assertEquals(4, contents.size(), messages.toString());
        assertEquals(List.of("A long task", "Then this", "Queued answer."),
                List.of(contents.get(0), contents.get(2), contents.get(3)), "A's exchange, then B's: " + messages);
        assertTrue(contents.get(1).contains("word39"), messages.toString());
    }

    @Test
    void aMessageSteeredOnAnotherReplicaJoinsTheRunAtItsNextRoundAndItsStreamFollowsThatRun() {
        // the first round writes slowly (8 s), then calls a backend tool: the message arrives during that round
        stub.enqueue(StubResponse.stream().text(LONG_ANSWER.toArray(String[]::new))
                .delayBetweenChunks(FRAGMENT_PAUSE.multipliedBy(STEER_PACE)).toolCall("call-" + UUID.randomUUID(),
                        "write_document", RunRequests.JSON.createObjectNode().put("document", "# Draft").toString())
                .build());
        stub.enqueue(StubResponse.stream().text("Done, in French.").build());
        RunRequests first = RunRequests.fresh().user("Write a draft");
        try (SseClient.LiveStream onA = a.client().open(AGENT, first.json())) {
            onA.await("TEXT_MESSAGE_CONTENT");

            RunRequests steering = continuation(first.threadId(), "In French, please").multitask("steer");
            try (SseClient.LiveStream onB = b.client().open(AGENT, steering.json())) {
                assertEquals(200, onB.status(), "accepted on B while A's run goes on");
                awaitMetric(a, "agui_runs_steered_waiting 1.0", "the message reaches A's run while its round goes on");

                List<JsonNode> events = onA.readToEnd();
                EventStreamVerifier.verify(events, first.threadId(), first.runId());
                assertTrue(events.stream().anyMatch(e -> "MESSAGES_SNAPSHOT".equals(e.path("type").asText())
                        && e.toString().contains("In French, please")), "A's stream shows the message arrive");
                List<JsonNode> joined = onB.readToEnd();
                EventStreamVerifier.verify(joined, first.threadId(), first.runId());
                assertTrue(joined.toString().contains("Done, in French."), "B's client sees the answer: " + joined);
            }
        }
        assertEquals(2, stub.requests().size(), "B started no run of its own");
        assertTrue(stub.lastRequest().toString().contains("In French, please"), stub.lastRequest().toString());
        List<String> contents = thread(a, first.threadId()).get("messages").findValuesAsText("content");
        assertEquals(List.of("In French, please", "Done, in French."),
                contents.subList(contents.size() - 2, contents.size()), "after the tool's result: " + contents);
        assertEquals(1, contents.stream().filter("In French, please"::equals).count(), contents.toString());
    }

    @Test
    void aReplicaKilledMidRunLeavesTheLastCommitAndItsClaimLapses() {
        ServerInstance doomed = logs.watch(ServerInstance.launch("doomed", replicaProperties(DOOMED_LOCK_TTL)));
        try {
            doomed.awaitReady();
            stub.enqueue(writeDocument("First draft.").build());
            stub.enqueue(StubResponse.stream().text("Written.").build());
            RunRequests first = RunRequests.fresh().user("Write a first draft");
            finished(doomed.client().run(AGENT, first.json()), first);

            // The second draft stalls after 4 of its argument fragments: the client already sees part of it.
            stub.enqueue(writeDocument("Second draft, never finished.").argumentChunks(6).stallAfter(6).build());
            try (SseClient.LiveStream running = doomed.client().open(AGENT,
                    continuation(first.threadId(), "Rewrite it").json())) {
                assertEquals(200, running.status());
                running.await("STATE_DELTA");
                doomed.kill();
            }

            JsonNode thread = thread(b, first.threadId());
            assertEquals("First draft.", thread.at("/state/document").asText(), "the committed state: " + thread);
            assertEquals(List.of("user", "assistant", "tool", "assistant", "user"),
                    thread.get("messages").findValuesAsText("role"),
                    "of the killed run, only its starting checkpoint (the new message): " + thread);

            RunRequests takeOver = continuation(first.threadId(), "Try again").multitask("reject");
            assertEquals(409, b.client().run(AGENT, takeOver.json()).response().statusCode(),
                    "the killed replica's claim outlives it until its time to live");
            stub.enqueue(StubResponse.stream().text("Back again.").build());
            SseClient.Stream afterLapse = finished(runOnceFree(b, takeOver), takeOver);
            assertEquals("First draft.", afterLapse.ofType("STATE_SNAPSHOT").get(0).at("/snapshot/document").asText());
            JsonNode afterTakeOver = thread(a, first.threadId());
            JsonNode messages = afterTakeOver.get("messages");
            assertEquals("Back again.", messages.get(messages.size() - 1).path("content").asText(),
                    "B committed after the lapse: " + afterTakeOver);
        } finally {
            doomed.close();
        }
    }

    @Test
    void aClientThatLeavesMidRunResumesFromItsCursorOnAnotherReplicaWithoutGapOrRepeat() {
        stub.enqueue(slowly(LONG_ANSWER).build());
        RunRequests request = continuing(RunRequests.fresh().user("Tell a long story"));
        List<SseClient.Frame> before;
        List<SseClient.Frame> after;
        List<SseClient.Frame> uninterrupted = new ArrayList<>();
        try (SseClient.LiveStream starter = a.client().open(AGENT, request.json())) {
            assertEquals(200, starter.status());
            starter.await("RUN_STARTED");
            uninterrupted.add(starter.frames().get(0));
            // The uninterrupted client to compare with: attached to the run on A from just after its RUN_STARTED.
            try (SseClient.LiveStream reference = a.client().open(CONNECT, connection(request.threadId()),
                    "Last-Event-ID", starter.frames().get(0).id())) {
                assertEquals(200, reference.status());
                awaitText(starter, 3);
                before = starter.frames();
                starter.close(); // the client leaves mid-run; the run goes on without it

                assertEquals(request.runId(), thread(b, request.threadId()).at("/activeRun/runId").asText(),
                        "the run is still live when the client comes back");
                try (SseClient.LiveStream resumed = b.client().open(CONNECT, connection(request.threadId()),
                        "Last-Event-ID", before.get(before.size() - 1).id())) {
                    assertEquals(200, resumed.status());
                    resumed.readToEnd();
                    after = resumed.frames();
                }
                reference.readToEnd();
                uninterrupted.addAll(reference.frames());
            }
        }

        List<SseClient.Frame> rejoined = new ArrayList<>(before);
        rejoined.addAll(after);
        assertEquals(uninterrupted, rejoined, "what the client got before leaving A and after coming back on B");
        String run = rejoined.get(0).id().substring(0, rejoined.get(0).id().indexOf('.') + 1);
        for (int i = 0; i < rejoined.size(); i++) {
            assertEquals(run + (i + 1), rejoined.get(i).id(), "frame " + i + " of " + rejoined);
        }
        List<JsonNode> events = rejoined.stream().<JsonNode>map(frame -> RunRequests.parse(frame.data())).toList();
        EventStreamVerifier.verify(events, request.threadId(), request.runId());
        assertEquals("RUN_FINISHED", events.get(events.size() - 1).get("type").asText());
        assertEquals(String.join("", LONG_ANSWER), text(events));
        JsonNode thread = thread(b, request.threadId());
        assertEquals(List.of("user", "assistant"), thread.get("messages").findValuesAsText("role"), thread.toString());
        assertEquals(String.join("", LONG_ANSWER), thread.at("/messages/1/content").asText(), thread.toString());
        assertEquals("success", thread.at("/lastRun/outcome").asText(), thread.toString());
    }

    @Test
    void aPlainAgUiClientJoinsFromAnotherReplicaARunInProgress() throws Exception {
        FrontendSample.assumeNode("the join through @ag-ui/client");
        FrontendSample.installIfMissing("@ag-ui/client");
        // The answer stops after its fifth word until the client is in, however long Node takes to start.
        CountDownLatch clientIn = new CountDownLatch(1);
        stub.enqueue(slowly(LONG_ANSWER).holdAfter(6, clientIn).build());
        RunRequests request = continuing(RunRequests.fresh().user("Tell a long story"));
        Path joinedFile = Files.createTempDirectory("join-").resolve("joined");
        JsonNode joined;
        List<JsonNode> started;
        try (SseClient.LiveStream starter = a.client().open(AGENT, request.json())) {
            assertEquals(200, starter.status());
            awaitText(starter, 3); // the answer is open: the join re-opens it with what it has so far
            CompletableFuture<JsonNode> join = CompletableFuture.supplyAsync(() -> {
                try {
                    return joinThroughAgUiClient(b, request.threadId(), joinedFile);
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            });
            awaitTrue(() -> Files.exists(joinedFile) || join.isDone(), Duration.ofSeconds(60),
                    "the joining client got an event");
            clientIn.countDown();
            joined = join.get(90, TimeUnit.SECONDS);
            started = starter.readToEnd();
        } finally {
            Files.deleteIfExists(joinedFile);
            Files.delete(joinedFile.getParent());
        }

        assertFalse(joined.has("error"), "runAgent rejected: " + joined.path("error"));
        assertEquals(List.of(), RunRequests.JSON.convertValue(joined.get("failures"), List.class), "onRunFailed");
        assertEquals(List.of(), RunRequests.JSON.convertValue(joined.get("console"), List.class),
                "the client printed console.warn/console.error");
        List<JsonNode> events = new ArrayList<>();
        joined.get("events").forEach(events::add);
        // the live run's own RUN_STARTED, not a restatement of the thread under the client's run id
        EventStreamVerifier.verify(events, request.threadId(), request.runId());
        assertEquals("RUN_FINISHED", events.get(events.size() - 1).get("type").asText(), events.toString());
        assertTrue(events.stream().anyMatch(e -> "TEXT_MESSAGE_CONTENT".equals(e.path("type").asText())),
                "the join saw the answer being written, so it joined a live run: " + events);
        assertEquals(String.join("", LONG_ANSWER), text(started), "the starter's answer");
        JsonNode messages = joined.get("messages");
        assertEquals(List.of("user", "assistant"), messages.findValuesAsText("role"), messages.toString());
        assertEquals(String.join("", LONG_ANSWER), messages.at("/1/content").asText(),
                "the joined client's answer, as the client assembled it");
    }

    @Test
    void aStopOnAnotherReplicaEndsTheRunCancelledAndClosesItsLlmCall() {
        RunRequests request = RunRequests.fresh().user("A long task");
        try (SseClient.LiveStream onA = stalledOnA(request)) {

            HttpResponse<String> stop = b.client().post(AGENT + "/stop/" + request.threadId(), "");
            assertEquals(200, stop.statusCode(), stop.body());
            assertTrue(RunRequests.parse(stop.body()).get("stopped").asBoolean(), stop.body());

            List<JsonNode> events = onA.readToEnd();
            EventStreamVerifier.verify(events, request.threadId(), request.runId());
            JsonNode end = events.get(events.size() - 1);
            assertEquals("RUN_FINISHED", end.get("type").asText(), events.toString());
            assertEquals("cancelled", end.at("/outcome/type").asText(), end.toString());
            // still attached: only the stop can have closed the LLM call
            assertTrue(stub.awaitClientDisconnect(CLAIM_DEADLINE), "A closes its LLM call when stopped");
        }
        JsonNode thread = thread(b, request.threadId());
        assertEquals(request.runId(), thread.at("/lastRun/runId").asText(), thread.toString());
        assertEquals("cancelled", thread.at("/lastRun/outcome").asText(), thread.toString());
        assertTrue(thread.path("activeRun").isMissingNode(), "no run is active: " + thread);
    }

    @Test
    void aRunsOutcomeIsPostedOnceThoughEveryReplicaHasTheWebhook() {
        // A runs it, B stops it: both replicas take part in the run, and both have the webhook
        RunRequests stopped = RunRequests.fresh().user("A long task");
        try (SseClient.LiveStream onA = stalledOnA(stopped)) {
            assertEquals(200, b.client().post(AGENT + "/stop/" + stopped.threadId(), "").statusCode());
            onA.readToEnd();
        }
        stub.enqueue(StubResponse.stream().text("Hi.").build());
        RunRequests finished = RunRequests.fresh().user("Hello");
        finished(b.client().run(AGENT, finished.json()), finished);
        // Each outcome is followed by a later one on the replica that did not run it (B ran `finished` after the stop,
        // A ran `laterOnA` after `finished`): a second post of an outcome from that replica would have been sent
        // before the later one's, which is awaited.
        stub.enqueue(StubResponse.stream().text("Hi again.").build());
        RunRequests laterOnA = RunRequests.fresh().user("Hello again");
        finished(a.client().run(AGENT, laterOnA.json()), laterOnA);
        for (RunRequests run : List.of(stopped, finished, laterOnA)) {
            webhooks.await("/runs", run.runId(), 1);
        }

        List<WebhookReceiver.Received> cancelled = webhooks.of("/runs", stopped.runId());
        assertEquals(1, cancelled.size(), "one post for the stopped run: " + cancelled);
        assertEquals("cancelled", cancelled.get(0).json().at("/data/outcome").asText(), cancelled.get(0).text());
        assertTrue(WebhookSignatures.verify(WEBHOOK_SECRET, cancelled.get(0)), cancelled.get(0).toString());
        List<WebhookReceiver.Received> done = webhooks.of("/runs", finished.runId());
        assertEquals(1, done.size(), "one post for the finished run: " + done);
        assertEquals("finished", done.get(0).json().at("/data/outcome").asText(), done.get(0).text());
    }

    @Test
    void aContinuingRunLostWithItsReplicaEndsInRunLostAndKeepsItsCompletedRound() {
        ServerInstance doomed = logs.watch(ServerInstance.launch("doomed", replicaProperties(DOOMED_LOCK_TTL)));
        try {
            doomed.awaitReady();
            String document = "Written before the crash.";
            stub.enqueue(writeDocument(document).build());
            stub.enqueue(StubResponse.stream().text("Now", " summarising").stallAfter(2).build());
            RunRequests request = continuing(RunRequests.fresh().user("Write it, then sum it up"));
            try (SseClient.LiveStream running = doomed.client().open(AGENT, request.json())) {
                assertEquals(200, running.status());
                running.await("TOOL_CALL_RESULT");
                // the second round's LLM call comes after the first round's checkpoint
                assertTrue(stub.awaitRequests(2, CLAIM_DEADLINE), "the second round began: " + stub.requests());
                doomed.kill();
            }
            assertTrue(awaitUnclaimed(b, request.threadId()), "the dead replica's claim lapses");

            SseClient.Stream connected = b.client().run(CONNECT, connection(request.threadId()));
            assertEquals(200, connected.response().statusCode(), connected.raw());
            EventStreamVerifier.verify(connected.events(), request.threadId(), request.runId());
            JsonNode end = connected.last();
            assertEquals("RUN_ERROR", end.get("type").asText(), connected.raw());
            assertEquals("run_lost", end.get("code").asText(), connected.raw());
            JsonNode restated = connected.ofType("MESSAGES_SNAPSHOT").get(0).get("messages");
            assertEquals(List.of("user", "assistant", "tool"), restated.findValuesAsText("role"), restated.toString());

            JsonNode thread = thread(b, request.threadId());
            assertEquals(List.of("user", "assistant", "tool"), thread.get("messages").findValuesAsText("role"),
                    "the completed round is kept: " + thread);
            assertEquals("write_document", thread.at("/messages/1/toolCalls/0/function/name").asText(),
                    thread.toString());
            assertEquals(thread.at("/messages/1/toolCalls/0/id").asText(),
                    thread.at("/messages/2/toolCallId").asText(), thread.toString());
            assertEquals(document, thread.at("/state/document").asText(), "the tool's effect is kept: " + thread);
            assertEquals(request.runId(), thread.at("/activeRun/runId").asText(),
                    "the thread still names the lost run: " + thread);
        } finally {
            doomed.close();
        }
    }

    private Map<String, String> replicaProperties(Duration lockTtl) {
        Map<String, String> properties = new HashMap<>(storeProperties());
        properties.put("agui.store.lock-ttl", lockTtl.toMillis() + "ms");
        properties.put("agui.llm.base-url", stub.baseUrl());
        properties.put("agui.llm.api-key", "test");
        properties.put("agui.llm.model", "gpt-test");
        properties.put("agui.state.delta-interval", "0ms"); // a STATE_DELTA per argument fragment
        // the document sample asks for confirmation by default; here its write must commit in one run
        properties.put("agui.samples.require-confirmation", "none");
        properties.put("agui.webhooks.runs.url", webhooks.url() + "/runs");
        properties.put("agui.webhooks.runs.secret", WEBHOOK_SECRET);
        return properties;
    }

    private static StubResponse.Builder writeDocument(String document) {
        return StubResponse.stream().toolCall("call-" + UUID.randomUUID(), "write_document",
                RunRequests.JSON.createObjectNode().put("document", document).toString());
    }

    /** A new run of the thread with one more user message, and only that: the server keeps the rest. */
    private static RunRequests continuation(String threadId, String text) {
        return RunRequests.of(threadId, "run-" + UUID.randomUUID()).user(text);
    }

    /** Waits, at most {@link #CLAIM_DEADLINE}, until the replica's metrics hold this line. */
    private static void awaitMetric(ServerInstance replica, String line, String what) {
        awaitTrue(() -> replica.client().get("/q/metrics").body().lines().anyMatch(line::equals), CLAIM_DEADLINE,
                what);
    }

    /** Polls {@code done} every {@link #CLAIM_POLL} until it holds; fails the test after {@code within}. */
    private static void awaitTrue(BooleanSupplier done, Duration within, String what) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within " + within + ": " + what);
            ServerInstance.pause(CLAIM_POLL);
        }
    }

    /** Reads the live run to its end, which must be a whole run that finished. */
    private static void finishedLive(SseClient.LiveStream stream, RunRequests request) {
        List<JsonNode> events = stream.readToEnd();
        EventStreamVerifier.verify(events, request.threadId(), request.runId());
        assertEquals("success", events.get(events.size() - 1).at("/outcome/type").asText(), events.toString());
    }

    /** Opens the run on A and reads until its LLM stream, which then stalls, has begun its answer. */
    private SseClient.LiveStream stalledOnA(RunRequests request) {
        stub.enqueue(StubResponse.stream().text("Thinking", " hard").stallAfter(2).build());
        SseClient.LiveStream onA = a.client().open(AGENT, request.json());
        assertEquals(200, onA.status());
        onA.await("TEXT_MESSAGE_CONTENT");
        return onA;
    }

    /** A text answer in these fragments, one every {@link #FRAGMENT_PAUSE}. */
    private static StubResponse.Builder slowly(List<String> fragments) {
        return StubResponse.stream().text(fragments.toArray(String[]::new)).delayBetweenChunks(FRAGMENT_PAUSE);
    }

    /** The request, asking for its run to go on when its client leaves. */
    private static RunRequests continuing(RunRequests request) {
        request.body().putObject("forwardedProps").put("onDisconnect", "continue");
        return request;
    }

    /** A connect request's body: the thread, nothing new. */
    private static String connection(String threadId) {
        return RunRequests.of(threadId, "run-" + UUID.randomUUID()).json();
    }

    /** Reads until the stream has brought {@code fragments} pieces of text. */
    private static void awaitText(SseClient.LiveStream stream, int fragments) {
        int[] seen = {0};
        stream.readUntil(event -> "TEXT_MESSAGE_CONTENT".equals(event.path("type").asText()) && ++seen[0] == fragments)
                .orElseThrow(() -> new AssertionError("the stream ended before " + fragments + " fragments of text: "
                        + stream.events()));
    }

    /** The text the events write. */
    private static String text(List<JsonNode> events) {
        StringBuilder text = new StringBuilder();
        events.stream().filter(e -> "TEXT_MESSAGE_CONTENT".equals(e.path("type").asText()))
                .forEach(e -> text.append(e.get("delta").asText()));
        return text.toString();
    }

    /**
     * Whether the replica sees no run holding the thread within {@link #CLAIM_DEADLINE}. A stop answers
     * {@code stopped:false} exactly then; a stop sent while the dead replica's claim stands reaches nobody.
     */
    private static boolean awaitUnclaimed(ServerInstance replica, String threadId) {
        long deadline = System.nanoTime() + CLAIM_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> stop = replica.client().post(AGENT + "/stop/" + threadId, "");
            assertEquals(200, stop.statusCode(), stop.body());
            if (!RunRequests.parse(stop.body()).get("stopped").asBoolean()) {
                return true;
            }
            ServerInstance.pause(CLAIM_POLL);
        }
        return false;
    }

    /**
     * What a plain {@code @ag-ui/client} got joining the thread's run through the replica's connect endpoint. The
     * client creates {@code joinedFile} at its first event.
     */
    private static JsonNode joinThroughAgUiClient(ServerInstance replica, String threadId, Path joinedFile)
            throws Exception {
        Path result = Files.createTempFile("join-", ".json");
        try {
            int exit = FrontendSample.run(replica.url(), List.of("node", "drivers/join-run.mjs"), 60, Map.of(
                    "AGENT", "document", "THREAD_ID", threadId,
                    "RESULT_FILE", result.toString(), "JOINED_FILE", joinedFile.toString())).exitCode();
            assertEquals(0, exit, "the join driver failed; its output is above");
            return RunRequests.JSON.readTree(result.toFile());
        } finally {
            Files.deleteIfExists(result);
        }
    }

    /** Checks the stream against the protocol's rules and that the run succeeded; returns it. */
    private static SseClient.Stream finished(SseClient.Stream stream, RunRequests request) {
        assertEquals(200, stream.response().statusCode(), stream.raw());
        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("RUN_FINISHED", stream.last().get("type").asText(), stream.raw());
        return stream;
    }

    /**
     * Runs as soon as the replica gets the thread. Each refused attempt has already waited
     * {@code agui.store.lock-wait} on the server, so the loop needs no pause of its own.
     */
    private static SseClient.Stream runOnceFree(ServerInstance replica, RunRequests request) {
        long deadline = System.nanoTime() + CLAIM_DEADLINE.toNanos();
        SseClient.Stream stream = replica.client().run(AGENT, request.json());
        while (stream.response().statusCode() == 409 && System.nanoTime() < deadline) {
            stream = replica.client().run(AGENT, request.json());
        }
        return stream;
    }

    private static JsonNode thread(ServerInstance replica, String threadId) {
        HttpResponse<String> response = replica.client().get("/threads/" + threadId);
        assertEquals(200, response.statusCode(), response.body());
        return RunRequests.parse(response.body());
    }

    private static String systemMessages(JsonNode llmRequest) {
        StringBuilder text = new StringBuilder();
        for (JsonNode message : llmRequest.get("messages")) {
            if ("system".equals(message.path("role").asText())) {
                text.append(message.path("content").asText()).append('\n');
            }
        }
        return text.toString();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            System.err.println("could not stop " + closeable + ": " + e);
        }
    }
}
