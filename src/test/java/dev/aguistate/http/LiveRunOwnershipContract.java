package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StoreProfiles;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.testing.UnknownThreads;
import io.restassured.specification.RequestSpecification;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Another user's live run, on each thread store, held where the race used to be won: a run waiting at its gate
 * ({@link GatedAgent}), a run whose thread its owner deletes, and (PostgreSQL) a run before its first checkpoint.
 * Every join, resume, stop and read of another user, on {@code /agui} and on CopilotKit's routes, is answered as for
 * a thread that does not exist, and the owner's run goes on untouched.
 */
abstract class LiveRunOwnershipContract extends StubbedLlmTestBase {

    static final String AGENT = "/agui/" + GatedAgent.NAME;
    static final String COPILOTKIT = StoreProfiles.Users.COPILOTKIT;
    static final String[] ALICE = {"Authorization", "Bearer alice-key"};
    private static final String[] BOB = {"Content-Type", "application/json", "Accept", "text/event-stream",
            "Authorization", "Bearer bob-key"};

    @Test
    void anotherUsersLiveRunIsAnsweredAsAThreadThatDoesNotExist() throws InterruptedException {
        GatedAgent.close();
        stub.enqueue(StubResponse.stream().toolCall("c1", GatedAgent.TOOL, "{}").build());
        stub.enqueue(StubResponse.stream().text("Through", " the gate.").build());
        RunRequests alices = RunRequests.fresh().user("my secret plan");
        try (SseClient.LiveStream run = client.open(AGENT, alices.json(), ALICE)) {
            GatedAgent.awaitReached();

            assertOthersReachNothing(alices);

            GatedAgent.open();
            assertRanToItsEnd(run.readToEnd(), alices, "Through the gate.");
        } finally {
            GatedAgent.open();
        }
    }

    @Test
    void deletingAThreadStopsItsLiveRunFirst() throws InterruptedException {
        GatedAgent.close();
        stub.enqueue(StubResponse.stream().toolCall("c1", GatedAgent.TOOL, "{}").build());
        RunRequests alices = continuing(RunRequests.fresh().user("my secret plan"));
        try (SseClient.LiveStream run = client.open(AGENT, alices.json(), ALICE)) {
            GatedAgent.awaitReached();

            as(ALICE).delete("/threads/" + alices.threadId()).then().statusCode(204);

            List<JsonNode> events = run.readToEnd();
            EventStreamVerifier.verify(events, alices.threadId(), alices.runId());
            assertEquals("cancelled", events.get(events.size() - 1).at("/outcome/type").asText(),
                    "the delete stopped the run: " + events);
            as(ALICE).get("/threads/" + alices.threadId()).then().statusCode(404);
            assertOthersReachNothing(alices);
        } finally {
            GatedAgent.open();
        }
        stub.enqueue(StubResponse.stream().text("Fresh start.").build());
        RunRequests again = RunRequests.of(alices.threadId(), "run-again").user("again");
        SseClient.Stream next = client.run("/agui/chat", again.json(), ALICE);
        assertEquals(200, next.response().statusCode(), "the stopped run let go of the thread: " + next.raw());
        as(ALICE).get("/threads/" + alices.threadId()).then().statusCode(200)
                .body("messages.content", equalTo(List.of("again", "Fresh start.")));
    }

    /** The request, asking for its run to go on when its client leaves, as a detached run does. */
    static RunRequests continuing(RunRequests request) {
        request.body().putObject("forwardedProps").put("onDisconnect", "continue");
        return request;
    }

    /** Every way bob could reach alice's live run, each answered as for a thread nobody used. */
    void assertOthersReachNothing(RunRequests alices) {
        String cursor = alices.runId() + ":1";
        Map<String, Function<String, HttpResponse<String>>> asks = new LinkedHashMap<>();
        asks.put("join", id -> bob(AGENT + "/connect", connection(id)));
        asks.put("resume from Last-Event-ID", id -> bob(AGENT + "/connect", connection(id), "Last-Event-ID", cursor));
        asks.put("resume from lastSeenEventId", id -> {
            RunRequests resuming = RunRequests.of(id, "bob-connect");
            resuming.body().putObject("forwardedProps").put("lastSeenEventId", cursor);
            return bob(AGENT + "/connect", resuming.json());
        });
        asks.put("stop", id -> bob(AGENT + "/stop/" + id, ""));
        asks.put("read", id -> client.get("/threads/" + id, BOB));
        asks.put("CopilotKit connect", id -> bob(COPILOTKIT + "/agent/" + GatedAgent.NAME + "/connect", connection(id)));
        asks.put("CopilotKit stop of the run", id -> bob(COPILOTKIT + "/agent/" + GatedAgent.NAME + "/stop/" + id,
                "{\"runId\":\"" + alices.runId() + "\"}"));
        asks.put("CopilotKit single route connect", id -> bob(COPILOTKIT,
                envelope("agent/connect", Map.of("agentId", GatedAgent.NAME), RunRequests.of(id, "bob-connect"))));
        asks.put("CopilotKit single route stop", id -> bob(COPILOTKIT,
                envelope("agent/stop", Map.of("agentId", GatedAgent.NAME, "threadId", id), null)));
        asks.forEach((what, ask) -> UnknownThreads.assertAnsweredAsUnknown("bob's " + what, alices.threadId(), ask));
    }

    /** The run's stream is whole and ends in success with {@code text} as its answer. */
    static void assertRanToItsEnd(List<JsonNode> events, RunRequests request, String text) {
        EventStreamVerifier.verify(events, request.threadId(), request.runId());
        JsonNode end = events.get(events.size() - 1);
        assertEquals("RUN_FINISHED", end.get("type").asText(), events.toString());
        assertEquals("success", end.at("/outcome/type").asText(), "nobody stopped it: " + events);
        assertEquals(text, events.stream().filter(e -> e.get("type").asText().equals("TEXT_MESSAGE_CONTENT"))
                .map(e -> e.get("delta").asText()).collect(Collectors.joining()));
    }

    static RequestSpecification as(String[] authorization) {
        return given().header(authorization[0], authorization[1]);
    }

    HttpResponse<String> bob(String path, String body, String... headers) {
        String[] all = new String[BOB.length + headers.length];
        System.arraycopy(BOB, 0, all, 0, BOB.length);
        System.arraycopy(headers, 0, all, BOB.length, headers.length);
        return client.post(path, body, all);
    }

    private static String connection(String threadId) {
        return RunRequests.of(threadId, "bob-connect").json();
    }

    private static String envelope(String method, Map<String, String> params, RunRequests body) {
        ObjectNode call = RunRequests.JSON.createObjectNode().put("method", method);
        ObjectNode named = call.putObject("params");
        params.forEach(named::put);
        if (body != null) {
            call.set("body", body.body());
        }
        return call.toString();
    }
}
