package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.store.SharedThreadStoreContract;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bounds on runs going on ({@code agui.run.max-active-per-user}, {@code agui.run.max-active}) and the rate limit
 * on asking for runs ({@code agui.run.rate-limit.*}): past them a run request is answered {@code 429} JSON with
 * {@code Retry-After} before any stream, and nothing reaches the LLM. Runs are held live at {@link GatedAgent}'s gate.
 */
@QuarkusTest
@TestProfile(RunLimitsTest.Limits.class)
class RunLimitsTest extends StubbedLlmTestBase {

    static final int PER_USER = 2;
    static final int PER_SERVER = 3;
    static final int RATE = 6;

    /**
     * The server's small limits: these bounds on runs, and threads of at most {@link #THREAD_BYTES} bytes, for
     * {@code ThreadSizeLimitTest} (as frank), which shares this boot; the threads of these tests stay far below it.
     */
    public static class Limits extends StubbedLlmProfile {

        static final int THREAD_BYTES = 4000;

        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("agui.store.max-thread-bytes", String.valueOf(THREAD_BYTES));
            for (String user : List.of("alice", "bob", "carol", "dave", "erin", "frank")) {
                overrides.put("agui.auth.api-keys." + user + "-key", user);
            }
            overrides.put("agui.run.max-active-per-user", String.valueOf(PER_USER));
            overrides.put("agui.run.max-active", String.valueOf(PER_SERVER));
            overrides.put("agui.run.rate-limit.runs-per-user", String.valueOf(RATE));
            overrides.put("agui.run.rate-limit.window", "1h");
            return overrides;
        }
    }

    private static final String GATED = "/agui/" + GatedAgent.NAME;

    @Test
    void aUsersRunsPastTheirBoundAreRefusedWith429AndARunGoingOnWithoutItsClientCountsUntilItEnds() {
        GatedAgent.close();
        stub.setDefault(StubResponse.stream().text("Through.").build());
        RunRequests detached = gated();
        detached.body().putObject("forwardedProps").put("onDisconnect", "continue");
        try (SseClient.LiveStream leaving = client.open(GATED, detached.json(), as("alice"))) {
            leaving.await("RUN_STARTED");
        }
        RunRequests attached = gated();
        try (SseClient.LiveStream held = client.open(GATED, attached.json(), as("alice"))) {
            held.await("RUN_STARTED");
            assertTrue(stub.awaitRequests(2, Duration.ofSeconds(10)), "both runs are at their first LLM call");

            assertRefused(run("alice", RunRequests.fresh().user("a third")), "too_many_runs", 5);
            assertEquals(2, stub.requests().size(), "the refused run reached nothing");
            assertEquals(200, run("bob", RunRequests.fresh().user("mine")).statusCode(), "another user's bound is theirs");

            GatedAgent.open();
            assertEquals("RUN_FINISHED", held.readToEnd().get(held.events().size() - 1).get("type").asText());
        } finally {
            GatedAgent.open();
        }
        awaitEnded(detached, "alice");
        awaitEnded(attached, "alice");
        assertEquals(200, run("alice", RunRequests.fresh().user("again")).statusCode(), "their runs ended: places free");
    }

    @Test
    void theServersBoundCountsEveryUsersRunsAndARefusedRunGivesItsPlaceBack() {
        GatedAgent.close();
        stub.setDefault(StubResponse.stream().text("Through.").build());
        RunRequests carols = gated();
        RunRequests daves = gated();
        RunRequests carolsSecond = gated();
        try (SseClient.LiveStream carol = client.open(GATED, carols.json(), as("carol"));
             SseClient.LiveStream dave = client.open(GATED, daves.json(), as("dave"))) {
            carol.await("RUN_STARTED");
            dave.await("RUN_STARTED");
            HttpResponse<String> busy = run("dave", RunRequests.of(daves.threadId(), "again").multitask("reject").user("more"));
            assertEquals(409, busy.statusCode(), busy.body());

            try (SseClient.LiveStream carol2 = client.open(GATED, carolsSecond.json(), as("carol"))) {
                assertEquals(200, carol2.status(), "the refused run gave its place back");
                carol2.await("RUN_STARTED");

                assertRefused(run("dave", RunRequests.fresh().user("one more")), "server_at_run_limit", 5);

                GatedAgent.open();
                carol2.readToEnd();
            }
            carol.readToEnd();
            dave.readToEnd();
        } finally {
            GatedAgent.open();
        }
        for (RunRequests run : List.of(carols, carolsSecond)) {
            awaitEnded(run, "carol");
        }
        awaitEnded(daves, "dave");
    }

    @Test
    void aUsersRunRequestsFasterThanTheRateLimitAreRefusedWith429() {
        stub.setDefault(StubResponse.stream().text("Quick.").build());
        for (int i = 0; i < RATE; i++) {
            assertEquals(200, run("erin", RunRequests.fresh().user("run " + i)).statusCode());
        }

        HttpResponse<String> refused = run("erin", RunRequests.fresh().user("one too many"));

        assertRefused(refused, "rate_limited", Duration.ofHours(1).toSeconds() / RATE);
        assertEquals(RATE, stub.requests().size(), "the refused run reached nothing");
        assertEquals(200, run("bob", RunRequests.fresh().user("mine")).statusCode(), "another user's rate is theirs");
    }

    /** A run of the gated agent that waits at the gate, whose first LLM call asks for the gate's tool. */
    private RunRequests gated() {
        stub.enqueue(StubResponse.stream().toolCall("c1", GatedAgent.TOOL, "{}").build());
        return RunRequests.fresh().user("go through the gate");
    }

    private static String[] as(String user) {
        return new String[] {"Authorization", "Bearer " + user + "-key"};
    }

    private HttpResponse<String> run(String user, RunRequests request) {
        return client.post("/agui/chat", request.json(), "Content-Type", "application/json", "Accept",
                "text/event-stream", "Authorization", "Bearer " + user + "-key");
    }

    /** A 429 before any stream: JSON with the code, and Retry-After of at most {@code atMostSeconds}. */
    private static void assertRefused(HttpResponse<String> response, String code, long atMostSeconds) {
        assertEquals(429, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        JsonNode body = RunRequests.parse(response.body());
        assertEquals(code, body.get("code").asText(), response.body());
        long retryAfter = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retryAfter >= 1 && retryAfter <= atMostSeconds, "Retry-After " + retryAfter);
    }

    /** Until a connect finds no live run on the thread: the run's end is in its log and its place given back. */
    private void awaitEnded(RunRequests run, String user) {
        SharedThreadStoreContract.awaitUntil(() -> {
            try (SseClient.LiveStream connected = client.open(GATED + "/connect",
                    RunRequests.of(run.threadId(), "look").json(), as(user))) {
                return connected.await("RUN_STARTED").get("runId").asText().equals("look");
            }
        }, "the run " + run.runId() + " ended");
    }
}
