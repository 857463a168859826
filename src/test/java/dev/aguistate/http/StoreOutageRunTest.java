package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.FaultyStoreResource;
import dev.aguistate.testing.FaultyTcpProxy;
import dev.aguistate.testing.LogCapture;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SideBySide;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.restassured.response.Response;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The server with its store behind a {@link FaultyTcpProxy} that goes silent (see {@link FaultyStoreResource}):
 * what clients see while the store does not answer, and that the server answers everything else meanwhile.
 * A subclass names the store.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
@Isolated
abstract class StoreOutageRunTest extends StubbedLlmTestBase {

    /** The server with the stubbed LLM and its store behind the proxy. */
    abstract static class StoreBehindProxy extends StubbedLlmProfile {

        private final String kind;

        StoreBehindProxy(String kind) {
            this.kind = kind;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            List<TestResourceEntry> resources = new ArrayList<>(super.testResources());
            resources.add(new QuarkusTestProfile.TestResourceEntry(FaultyStoreResource.class, Map.of("kind", kind)));
            return resources;
        }
    }

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(20);

    private FaultyTcpProxy proxy;

    @BeforeEach
    void storeAnswers() {
        FaultyStoreResource.assumeServer();
        proxy = FaultyStoreResource.proxy();
        proxy.pass();
    }

    @AfterEach
    void storeAnswersAgain() {
        if (proxy != null) {
            proxy.pass();
        }
    }

    @Test
    void theThreadApiAnswers503StoreUnavailableWithRetryAfterAndTheServerAnswersOtherRequestsMeanwhile() {
        String id = "thread-" + UUID.randomUUID();
        proxy.stall();

        CompletableFuture<HttpResponse<String>> read = CompletableFuture.supplyAsync(() -> client.get("/threads/" + id));
        proxy.awaitHeldRequest(BOUND);
        assertEquals(200, client.get("/q/health/live").statusCode(), "liveness, while the read waits for the store");
        assertEquals(200, client.get("/agui/agents").statusCode(), "the agents, while the read waits for the store");

        // the listing and the delete wait for the silent store beside the read, not each after the one before
        CompletableFuture<Response> list = SideBySide.start(() -> given().get("/threads"));
        CompletableFuture<Response> delete = SideBySide.start(() -> given().delete("/threads/" + id));
        assertStoreUnavailable(read.join());
        assertStoreUnavailable(list.join());
        assertStoreUnavailable(delete.join());
    }

    @Test
    void aRunStartedWhileTheStoreIsSilentIsRefusedWith503StoreUnavailableAndRetryAfter() {
        proxy.stall();

        HttpResponse<String> refused = client.post("/agui/notebook", RunRequests.fresh().user("hi").json(),
                "Content-Type", "application/json", "Accept", "text/event-stream");

        assertStoreUnavailable(refused);
    }

    @Test
    void readinessIsDownWhileTheStoreIsSilentAndUpOnceItAnswers() {
        given().get("/q/health/ready").then().statusCode(200);
        proxy.stall();

        JsonNode down = RunRequests.parse(given().get("/q/health/ready").then().statusCode(503).extract().asString());

        assertEquals("DOWN", check(down, "thread-store").path("status").asText());
        assertEquals("UP", check(down, "heap").path("status").asText());
        proxy.pass();
        awaitReady();
    }

    @Test
    void aRunWhoseCheckpointFindsTheStoreSilentEndsWithRunErrorAndKeepsOnlyWhatWasKeptBefore() throws InterruptedException {
        GatedAgent.close();
        stub.enqueue(StubResponse.stream().toolCall("c1", GatedAgent.TOOL, "{}").build());
        stub.enqueue(StubResponse.stream().text("Through.").build());
        RunRequests request = RunRequests.fresh().user("go through the gate");
        try (SseClient.LiveStream run = client.open("/agui/" + GatedAgent.NAME, request.json())) {
            GatedAgent.awaitReached();
            proxy.stall();
            GatedAgent.open();
            proxy.awaitHeldRequest(BOUND);
            assertEquals(200, client.get("/q/health/live").statusCode(), "liveness, while the commit waits");

            JsonNode last = run.readUntil(event -> event.path("type").asText().startsWith("RUN_")
                    && !"RUN_STARTED".equals(event.path("type").asText())).orElseThrow();

            assertEquals("RUN_ERROR", last.path("type").asText(), run.events().toString());
            assertTrue(run.readUntil(event -> true).isEmpty(), "the stream ends after RUN_ERROR");
        }
        proxy.cut(); // the commit the stall held never reaches the store
        proxy.pass();
        awaitReady();
        JsonNode thread = storedThread(request.threadId());
        assertEquals(List.of("go through the gate"), thread.get("messages").findValuesAsText("content"),
                "the starting checkpoint is kept; the round whose checkpoint the stall held is not");
        assertEquals(request.runId(), thread.at("/activeRun/runId").asText(),
                "the end could not be recorded either: the thread still names the run (a connect reports it lost)");
    }

    /**
     * While the store is down, a run goes on for its client (its events reach the client directly), and every
     * append of its events to the run's log fails: the log says so once when the appends start failing and once,
     * with the count, when they work again, not once per append; and nothing is logged as an error.
     */
    @Test
    void aStoreDownDuringARunIsLoggedOnceWhenItStartsAndOnceWhenItEnds() {
        String[] words = new String[ANSWER_WORDS];
        Arrays.setAll(words, n -> "word" + n + " ");
        // An earlier test's outage may be over without its end logged yet (the log says so at the next append that
        // works, whichever run's): a run's appends now log it before the capture starts.
        stub.enqueue(StubResponse.stream().text("Hello.").build());
        assertEquals("RUN_FINISHED", client.run("/agui/stateless", RunRequests.fresh().user("hi").json()).last()
                .path("type").asText());
        stub.enqueue(StubResponse.stream().text(words).delayBetweenChunks(Duration.ofMillis(10)).build());
        RunRequests request = RunRequests.fresh().user("talk for a while");
        try (LogCapture log = LogCapture.atLeast(Level.INFO);
             SseClient.LiveStream run = client.open("/agui/stateless", request.json())) {
            readWords(run, 5);
            proxy.down();
            readWords(run, 40);
            proxy.pass();

            JsonNode last = run.readUntil(event -> event.path("type").asText().matches("RUN_(FINISHED|ERROR)"))
                    .orElseThrow();

            assertEquals("RUN_FINISHED", last.path("type").asText(), run.events().toString());
            assertEquals(String.join("", words), storedThread(request.threadId()).at("/messages/1/content").asText());
            Instant deadline = Instant.now().plus(BOUND);
            while (log.containing("works again").stream().noneMatch(line -> line.contains(APPENDS))) {
                assertTrue(Instant.now().isBefore(deadline), "the appends never worked again: " + log.lines());
                LockSupport.parkNanos(POLL.toNanos()); // polls a condition: the run's next append after the outage
            }
            List<String> appends = log.containing(APPENDS);
            assertEquals(2, appends.size(), "one line as the appends start failing, one as they work again: "
                    + appends);
            assertTrue(appends.get(0).startsWith("WARN") && appends.get(1).startsWith("INFO"), appends.toString());
            assertEquals(List.of(), log.errors());
        }
    }

    /** What the log calls the appends of runs' events. */
    private static final String APPENDS = "appending runs' events to their logs";
    private static final int ANSWER_WORDS = 150;

    private static void readWords(SseClient.LiveStream run, int count) {
        for (int n = 0; n < count; n++) {
            run.await("TEXT_MESSAGE_CONTENT");
        }
    }

    private static void assertStoreUnavailable(Response response) {
        assertStoreUnavailable(response.statusCode(), response.header("Retry-After"), response.asString());
    }

    private static void assertStoreUnavailable(HttpResponse<String> response) {
        assertStoreUnavailable(response.statusCode(), response.headers().firstValue("Retry-After").orElse(null),
                response.body());
    }

    private static void assertStoreUnavailable(int status, String retryAfter, String body) {
        assertEquals(503, status, body);
        assertTrue(retryAfter != null && Integer.parseInt(retryAfter) > 0, "Retry-After: " + retryAfter);
        JsonNode error = RunRequests.parse(body);
        assertEquals(503, error.path("status").asInt());
        assertEquals("store_unavailable", error.path("code").asText());
        assertTrue(error.path("message").asText().length() > 0);
    }

    private static JsonNode check(JsonNode health, String name) {
        for (JsonNode check : health.path("checks")) {
            if (name.equals(check.path("name").asText())) {
                return check;
            }
        }
        throw new AssertionError("no check '" + name + "' in " + health);
    }

    /** Readiness comes back once the store answers; its first pings may still meet connections the stall held. */
    private static void awaitReady() {
        Instant deadline = Instant.now().plus(BOUND);
        while (given().get("/q/health/ready").statusCode() != 200) {
            assertTrue(Instant.now().isBefore(deadline), "not ready within " + BOUND);
        }
    }
}
