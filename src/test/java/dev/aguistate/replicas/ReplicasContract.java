package dev.aguistate.replicas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.OpenAiStub;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.threads.StoreServer;
import io.vertx.mutiny.core.Vertx;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
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
 * it for longer than its claim's time to live. A subclass names the store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
abstract class ReplicasContract {

    private static final String AGENT = "/agui/document";
    /** The run claim of the replicas that live through the class; far longer than any of its runs. */
    private static final Duration LOCK_TTL = Duration.ofMinutes(5);
    /** The run claim of the replica that is killed: short, so the test sees it lapse; long enough to see it held. */
    private static final Duration DOOMED_LOCK_TTL = Duration.ofSeconds(5);
    /** How long a replica may take to see a claim released or lapsed. */
    private static final Duration CLAIM_DEADLINE = Duration.ofSeconds(30);

    @RegisterExtension
    final InstanceLogs logs = new InstanceLogs();

    private OpenAiStub stub;
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
        for (AutoCloseable running : new AutoCloseable[] {a, b, stub}) {
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
        assertEquals(2, thread.get("version").asInt(), "A sees B's commit: " + thread);
        assertEquals("Welcome back.", thread.at("/messages/5/content").asText(), "A sees B's commit: " + thread);
    }

    @Test
    void aRunOnAnotherReplicaWhileTheThreadIsRunningIsRefusedWith409() {
        stub.enqueue(StubResponse.stream().text("Thinking", " hard").stallAfter(2).build());
        RunRequests first = RunRequests.fresh().user("A long task");
        try (SseClient.LiveStream onA = a.client().open(AGENT, first.json())) {
            assertEquals(200, onA.status());
            onA.await("TEXT_MESSAGE_CONTENT"); // A's run is in its LLM stream, which now stalls

            HttpResponse<String> onB = b.client().post(AGENT, continuation(first.threadId(), "Me too").json(),
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
            assertEquals(1, thread.get("version").asInt(), "only the first run was committed: " + thread);
            assertEquals("First draft.", thread.at("/state/document").asText(), "the committed state: " + thread);
            assertEquals(List.of("user", "assistant", "tool", "assistant"),
                    thread.get("messages").findValuesAsText("role"), "nothing of the killed run: " + thread);

            RunRequests takeOver = continuation(first.threadId(), "Try again");
            assertEquals(409, b.client().run(AGENT, takeOver.json()).response().statusCode(),
                    "the killed replica's claim outlives it until its time to live");
            stub.enqueue(StubResponse.stream().text("Back again.").build());
            SseClient.Stream afterLapse = finished(runOnceFree(b, takeOver), takeOver);
            assertEquals("First draft.", afterLapse.ofType("STATE_SNAPSHOT").get(0).at("/snapshot/document").asText());
            assertEquals(2, thread(a, first.threadId()).get("version").asInt(), "B committed after the lapse");
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
