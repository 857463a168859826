package dev.aguistate.copilotkit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StoreProfiles;
import dev.aguistate.testing.UnknownThreads;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CopilotKit's runtime endpoints over HTTP, under a configured base path written with a trailing slash, with API
 * keys configured: the info shape, every route's errors before a stream (401, 404, 400, 415, 406, 422 as JSON),
 * runs and the single-route envelope, CopilotKit's stop answers. The thread endpoints: {@link CopilotKitThreadsContract}.
 */
@QuarkusTest
@TestProfile(StoreProfiles.Users.Memory.class)
class CopilotKitRouteTest extends CopilotKitRequests {

    @Test
    void infoListsEveryAgentWithItsDescriptionAndCapabilities() {
        JsonNode info = RunRequests.parse(as("alice-key").get(BASE + "/info").then().statusCode(200)
                .contentType("application/json").extract().asString());
        JsonNode listed = RunRequests.parse(as("alice-key").get("/agui/agents").then().statusCode(200)
                .extract().asString());
        List<String> names = new ArrayList<>();
        info.get("agents").fieldNames().forEachRemaining(names::add);
        List<String> expected = new ArrayList<>();
        for (JsonNode agent : listed.get("agents")) {
            expected.add(agent.get("name").asText());
            JsonNode described = info.at("/agents/" + agent.get("name").asText());
            assertEquals(agent.get("name"), described.get("name"));
            assertEquals(agent.get("description"), described.get("description"));
            assertEquals(agent.get("capabilities"), described.get("capabilities"), "the AG-UI capabilities");
        }
        assertEquals(expected, names);
        assertEquals("sse", info.get("mode").asText());
        assertEquals(RunRequests.parse("{\"list\":true,\"inspect\":true,\"mutations\":true,\"realtimeMetadata\":false}"),
                info.get("threadEndpoints"));
        assertFalse(info.has("singleRoute"), "the REST info does not describe the single route");

        JsonNode single = RunRequests.parse(post(BASE, "{\"method\":\"info\"}", "Content-Type", "application/json",
                ALICE[0], ALICE[1]).body());
        assertEquals(info.get("agents"), single.get("agents"));
        assertTrue(single.at("/singleRoute/resourceOperations").asBoolean());
        assertEquals(info.get("threadEndpoints"), single.at("/singleRoute/threadEndpoints"));

        given().get(BASE + "/info").then().statusCode(401).body("code", equalTo("unauthorized"));
        error(post(BASE, "{\"method\":\"info\"}", "Content-Type", "application/json"), 401, "unauthorized");
        as("alice-key").post(BASE + "/info").then().statusCode(405).header("Allow", "GET");
    }

    @Test
    void everyRouteAnswersBadRequestsWithJsonBeforeAnyStream() {
        String good = RunRequests.fresh().user("hi").json();
        error(post(BASE + "/agent/nope/run", good, JSON_ALICE), 404, "unknown_agent");
        error(post(BASE + "/agent/nope/connect", good, JSON_ALICE), 404, "unknown_agent");
        error(post(BASE + "/agent/nope/stop/t-1", "", JSON_ALICE), 404, "unknown_agent");
        error(post(BASE + "/agent/chat/run", good, "Content-Type", "application/json"), 401, "unauthorized");
        error(post(BASE + "/agent/chat/run", "{", "Content-Type", "application/json", ALICE[0], ALICE[1]),
                400, "malformed_json");
        error(post(BASE + "/agent/chat/run", "{\"threadId\":1}", JSON_ALICE), 422, "invalid_run_input");
        error(post(BASE + "/agent/chat/connect", "{\"threadId\":1}", JSON_ALICE), 422, "invalid_run_input");
        error(post(BASE + "/agent/chat/run", good, "Content-Type", "text/plain", ALICE[0], ALICE[1]),
                415, "unsupported_media_type");
        error(post(BASE + "/agent/chat/run", good, "Accept", "application/json", JSON_ALICE[0], JSON_ALICE[1],
                JSON_ALICE[2], JSON_ALICE[3]),
                406, "not_acceptable");
        error(post(BASE + "/agent/chat/stop/t-1", "[1]", JSON_ALICE), 400, "invalid_request");
        error(post(BASE + "/agent/chat/stop/t-1", "{", JSON_ALICE), 400, "malformed_json");
        as("alice-key").get(BASE + "/agent/chat/run").then().statusCode(405).header("Allow", "POST");
        // what /info states is off is not there
        as("alice-key").post(BASE + "/agent/chat/suggest").then().statusCode(404).body("code", equalTo("not_found"));
        as("alice-key").post(BASE + "/transcribe").then().statusCode(404).body("code", equalTo("not_found"));

        JsonNode run = RunRequests.fresh().user("hi").body();
        String[] json = JSON_ALICE;
        error(post(BASE, "{\"method\":\"nope\"}", json), 400, "invalid_request");
        error(post(BASE, "{\"params\":{}}", json), 400, "invalid_request");
        error(post(BASE, "not json", json), 400, "malformed_json");
        error(post(BASE, envelope("agent/run", Map.of(), run).toString(), json), 400, "invalid_request");
        error(post(BASE, envelope("agent/run", Map.of("agentId", "chat"), null).toString(), json),
                400, "invalid_request");
        error(post(BASE, envelope("agent/run", Map.of("agentId", "nope"), run).toString(), json),
                404, "unknown_agent");
        error(post(BASE, envelope("agent/run", Map.of("agentId", "chat"), RunRequests.parse("{\"threadId\":1}"))
                .toString(), json), 422, "invalid_run_input");
        error(post(BASE, envelope("agent/stop", Map.of("agentId", "chat"), null).toString(), json),
                400, "invalid_request");
        error(post(BASE, "{\"method\":\"info\"}", "Content-Type", "text/plain", ALICE[0], ALICE[1]),
                415, "unsupported_media_type");
        assertEquals(0, stub.requests().size(), "nothing reached the LLM");
    }

    /** A run input's JSON, {@code value} (JSON text) under {@code state.value}, before and after it. */
    private static final String[] WITH_STATE_VALUE = {
        "{\"threadId\":\"", "\",\"runId\":\"r\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"content\":\"hi\"}],"
                + "\"state\":{\"value\":", "}}"};

    static Stream<Arguments> valuesAguRefuses() {
        return Stream.of(
                Arguments.of("too large for a double", "1e400".getBytes(StandardCharsets.UTF_8), 422,
                        "invalid_run_input"),
                Arguments.of("would become 0", "1e-400".getBytes(StandardCharsets.UTF_8), 422, "invalid_run_input"),
                Arguments.of("more digits than a double holds", "3.14159265358979323846".getBytes(StandardCharsets.UTF_8),
                        422, "invalid_run_input"),
                Arguments.of("a lone surrogate", "\"\\ud800\"".getBytes(StandardCharsets.UTF_8), 422,
                        "invalid_run_input"),
                Arguments.of("overlong UTF-8 for '/'", new byte[] {'"', (byte) 0xc0, (byte) 0xaf, '"'}, 400,
                        "malformed_json"));
    }

    /**
     * The single route's envelope carries a run request's body: it is held to the rules {@code /agui} holds that body
     * to, refused with the same status and code, and nothing of it is run or stored.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("valuesAguRefuses")
    void theSingleRouteRefusesWhatAguiRefuses(String name, byte[] value, int status, String code) {
        String threadId = "strict-" + java.util.UUID.randomUUID();
        byte[] input = concat(WITH_STATE_VALUE[0] + threadId + WITH_STATE_VALUE[1], value, WITH_STATE_VALUE[2]);
        byte[] enveloped = concat("{\"method\":\"agent/run\",\"params\":{\"agentId\":\"chat\"},\"body\":", input, "}");

        HttpResponse<String> onAgui = client.post("/agui/chat", input, JSON_ALICE);
        HttpResponse<String> onSingleRoute = client.post(BASE, enveloped, JSON_ALICE);

        error(onAgui, status, code);
        error(onSingleRoute, status, code);
        assertEquals(0, stub.requests().size(), "nothing reached the LLM");
        as("alice-key").get("/threads/" + threadId).then().statusCode(404);
    }

    private static byte[] concat(String head, byte[] middle, String tail) {
        byte[] start = head.getBytes(StandardCharsets.UTF_8);
        byte[] end = tail.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[start.length + middle.length + end.length];
        System.arraycopy(start, 0, all, 0, start.length);
        System.arraycopy(middle, 0, all, start.length, middle.length);
        System.arraycopy(end, 0, all, start.length + middle.length, end.length);
        return all;
    }

    @Test
    void runsStreamTheSameEventsThroughTheRoutesAndTheSingleRouteEnvelope() {
        stub.setDefault(StubResponse.stream().text("Hello", " there").build());
        RunRequests direct = RunRequests.fresh().user("hi");
        List<JsonNode> events = run(BASE + "/agent/chat/run", direct.json());
        EventStreamVerifier.verify(events, direct.threadId(), direct.runId());
        assertEquals("RUN_FINISHED", events.get(events.size() - 1).get("type").asText());

        RunRequests enveloped = RunRequests.fresh().user("hi");
        List<JsonNode> viaEnvelope = run(BASE, envelope("agent/run", Map.of("agentId", "chat"), enveloped.body())
                .toString());
        EventStreamVerifier.verify(viaEnvelope, enveloped.threadId(), enveloped.runId());
        assertEquals(types(events), types(viaEnvelope));

        // the same thread, stored where /agui keeps its threads, restated by connect (REST and envelope)
        as("alice-key").get("/threads/" + direct.threadId()).then().statusCode(200).body("agent", equalTo("chat"));
        RunRequests reconnect = RunRequests.of(direct.threadId(), "reconnect-1");
        for (List<JsonNode> restated : List.of(run(BASE + "/agent/chat/connect", reconnect.json()),
                run(BASE, envelope("agent/connect", Map.of("agentId", "chat"), reconnect.body()).toString()))) {
            JsonNode snapshot = restated.stream().filter(e -> e.get("type").asText().equals("MESSAGES_SNAPSHOT"))
                    .findFirst().orElseThrow();
            assertEquals(2, snapshot.get("messages").size(), "the question and the answer");
        }
    }

    private static List<String> types(List<JsonNode> events) {
        return events.stream().map(e -> e.get("type").asText()).toList();
    }

    @Test
    void stopAnswersAsCopilotKitsRuntimeAndStopsOnlyTheNamedRun() {
        stub.enqueue(StubResponse.stream().text("Once", " upon", " a time").stallAfter(2).build());
        RunRequests request = RunRequests.fresh().user("tell a story");
        String stop = BASE + "/agent/chat/stop/" + request.threadId();
        try (SseClient.LiveStream owner = client.open(BASE + "/agent/chat/run", request.json(), ALICE)) {
            owner.await("TEXT_MESSAGE_CONTENT");

            assertEquals(RunRequests.parse("{\"stopped\":false,\"message\":\"No active run for thread '"
                    + request.threadId() + "'.\"}"), RunRequests.parse(post(stop, "{\"runId\":\"an-older-run\"}",
                    JSON_ALICE).body()), "a stop for another run leaves the live one alone");
            UnknownThreads.assertAnsweredAsUnknown("another user's stop", request.threadId(), id -> post(
                    BASE + "/agent/chat/stop/" + id, "", "Content-Type", "application/json", "Authorization",
                    "Bearer bob-key"));

            HttpResponse<String> stopped = post(stop, "{\"runId\":\"" + request.runId() + "\"}", JSON_ALICE);
            assertEquals(200, stopped.statusCode());
            assertEquals(RunRequests.parse("{\"stopped\":true}"), RunRequests.parse(stopped.body()));
            List<JsonNode> events = owner.readToEnd();
            assertEquals("cancelled", events.get(events.size() - 1).at("/outcome/type").asText());
        }
        String enveloped = envelope("agent/stop", Map.of("agentId", "chat", "threadId", request.threadId()), null)
                .toString();
        JsonNode again = RunRequests.parse(post(BASE, enveloped, "Content-Type", "application/json",
                ALICE[0], ALICE[1]).body());
        assertFalse(again.get("stopped").asBoolean(), "nothing is live any more");
        assertTrue(again.get("message").asText().contains(request.threadId()));
    }
}
