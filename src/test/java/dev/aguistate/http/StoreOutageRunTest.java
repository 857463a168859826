package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.FaultyStoreResource;
import dev.aguistate.testing.FaultyTcpProxy;
import dev.aguistate.testing.RunRequests;
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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server with its store behind a {@link FaultyTcpProxy} that goes silent (see {@link FaultyStoreResource}):
 * what clients see while the store does not answer, and that the server answers everything else meanwhile.
 * A subclass names the store.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
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

        assertStoreUnavailable(read.join());
        assertStoreUnavailable(given().get("/threads"));
        assertStoreUnavailable(given().delete("/threads/" + id));
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
