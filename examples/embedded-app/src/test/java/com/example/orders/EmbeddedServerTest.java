package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aguistate.testing.OpenAiStub;
import dev.aguistate.testing.OpenAiStubResource;
import dev.aguistate.testing.StubResponse;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The orders service with the AG-UI server in it, over real HTTP, its LLM the server's OpenAI-wire stub: the agent
 * of agents.yaml calls OrderTools, the server's other endpoints answer as in the standalone server, under the
 * application's {@code agui.http.root} ({@code /assistant}), and the application's own endpoint and configuration are
 * as they were.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStubResource.class)
class EmbeddedServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TestHTTPResource("/")
    URI root;

    private OpenAiStub llm;

    @BeforeEach
    void resetLlm() {
        llm = OpenAiStubResource.stub();
        llm.reset();
    }

    @Test
    void theSupportAgentCallsLookupOrderAndItsReturnIsTheToolResult() throws Exception {
        llm.enqueue(StubResponse.stream().toolCall("call_1", "lookupOrder", "{\"orderNumber\":\"A-17\"}").build());
        llm.enqueue(StubResponse.stream().text("A-17 arrives on Thursday.").build());
        String threadId = "thread-" + UUID.randomUUID();

        List<JsonNode> events = events(post("/assistant/agui/support", runInput(threadId, "Where is order A-17?")));

        assertEquals(List.of("RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT",
                "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"), types(events));
        JsonNode result = events.get(4);
        assertEquals("call_1", result.get("toolCallId").asText());
        assertEquals("Order A-17 shipped on Monday and arrives on Thursday.", result.get("content").asText());
        JsonNode offered = llm.lastRequest().get("tools").get(0).get("function");
        assertEquals("lookupOrder", offered.get("name").asText());
        assertEquals("string", offered.at("/parameters/properties/orderNumber/type").asText());

        HttpResponse<String> thread = get("/assistant/threads/" + threadId);
        assertEquals(200, thread.statusCode(), thread.body());
        JsonNode messages = JSON.readTree(thread.body()).get("messages");
        assertEquals("Order A-17 shipped on Monday and arrives on Thursday.",
                messages.get(2).get("content").asText(), "the tool's result is stored with the thread");
    }

    @Test
    void connectRestatesTheThreadAndStopFindsNoLiveRun() throws Exception {
        llm.enqueue(StubResponse.stream().text("Hello.").build());
        String threadId = "thread-" + UUID.randomUUID();
        events(post("/assistant/agui/support", runInput(threadId, "Hi")));

        List<JsonNode> restated = events(post("/assistant/agui/support/connect", runInput(threadId, "Hi")));
        assertTrue(types(restated).contains("MESSAGES_SNAPSHOT"), types(restated).toString());

        HttpResponse<String> stop = post("/assistant/agui/support/stop/" + threadId, "");
        assertEquals(200, stop.statusCode(), stop.body());
        assertEquals(false, JSON.readTree(stop.body()).get("stopped").asBoolean(), stop.body());
    }

    @Test
    void onlyTheApplicationsAgentIsServedAndItIsTheDefault() throws Exception {
        JsonNode agents = JSON.readTree(get("/assistant/agui/agents").body()).get("agents");
        assertEquals(1, agents.size(), "no sample agents: " + agents);
        assertEquals("support", agents.get(0).get("name").asText());
        assertTrue(agents.get(0).get("isDefault").asBoolean());

        JsonNode info = JSON.readTree(get("/assistant/copilotkit/info").body());
        assertTrue(info.get("agents").has("support"), info.toString());
        JsonNode capabilities = JSON.readTree(get("/assistant/agui/support/capabilities").body());
        assertEquals("lookupOrder", capabilities.at("/tools/items/0/name").asText(), capabilities.toString());
        assertEquals("/assistant/agui/support", capabilities.at("/custom/endpoints/run").asText());
    }

    @Test
    void everyRouteOfTheServerIsUnderTheRootAndNoneAtTheOldPaths() throws Exception {
        assertEquals(200, get("/assistant/threads").statusCode());
        for (String path : List.of("/agui/agents", "/threads", "/agui/support/capabilities", "/copilotkit/info")) {
            HttpResponse<String> old = get(path);
            assertEquals(404, old.statusCode(), path + ": " + old.body());
            assertEquals("not_found", JSON.readTree(old.body()).get("code").asText(), path);
        }
        assertEquals(404, post("/agui/support", runInput("thread-" + UUID.randomUUID(), "Hi")).statusCode());
        JsonNode paths = JSON.readTree(get("/q/openapi?format=json").body()).get("paths");
        assertTrue(paths.has("/assistant/agui/agents") && paths.has("/assistant/threads/{threadId}")
                && !paths.has("/agui/agents"), paths.toString());
    }

    @Test
    void theApplicationsEndpointAndConfigurationAreItsOwn() throws Exception {
        HttpResponse<String> hello = get("/hello");
        assertEquals(200, hello.statusCode());
        assertEquals("Hello from the orders service", hello.body());
        assertEquals(404, get("/").statusCode(), "no sample UI");
    }

    private static String runInput(String threadId, String text) {
        return """
                {"threadId":"%s","runId":"%s","protocolVersion":"1.0",
                 "messages":[{"id":"m-%s","role":"user","content":"%s"}]}"""
                .formatted(threadId, UUID.randomUUID(), threadId, text);
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(root.resolve(path)).header("Content-Type", "application/json")
                .header("Accept", "text/event-stream, application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(root.resolve(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The events of a whole SSE answer (the run ended, so the body did). */
    private static List<JsonNode> events(HttpResponse<String> response) throws Exception {
        assertEquals(200, response.statusCode(), response.body());
        List<JsonNode> events = new ArrayList<>();
        for (String line : response.body().split("\n")) {
            if (line.startsWith("data: ")) {
                events.add(JSON.readTree(line.substring("data: ".length())));
            }
        }
        return events;
    }

    private static List<String> types(List<JsonNode> events) {
        return events.stream().map(event -> event.get("type").asText()).toList();
    }
}
