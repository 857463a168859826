package dev.aguistate.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.McpFixture;
import dev.aguistate.testing.McpServersResource;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.TokensProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.testing.TokenIssuer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import io.quarkus.test.junit.TestProfile;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Agents whose tools come from MCP servers and HTTP endpoints, run through the real langchain4j client against the
 * OpenAI-wire stub: the reference server {@code @modelcontextprotocol/server-everything} (started by the application
 * over stdio, and by the test over Streamable HTTP) and the test's own {@link McpFixture}, whose tools misbehave on
 * purpose. Callers prove themselves with signed tokens (the forwarded token is checked) or an API key.
 */
@QuarkusTest
@TestProfile(TokensProfile.class)
class McpToolsTest extends StubbedLlmTestBase {

    @Inject
    InMemorySpanExporter spans;

    private McpFixture fixture;
    private String token;

    @BeforeEach
    void setUp() {
        fixture = McpServersResource.fixture();
        fixture.reset();
        token = TokenIssuer.current().token("alice", "mcp"); // a tenant of its own: JwtAuthTest sets acme's app: keys
        awaitListed("mcp-stdio", "mcp__everything__echo");
        awaitListed("mcp-http", "echo");
        awaitListed("mcp-sse", "mcp__old__echo");
        awaitListed("mcp-fixture", "mcp__wx__get_weather");
        awaitListed("mcp-restart", "mcp__exiting__pid");
    }

    /**
     * Waits until the agent offers {@code tool}: the servers are reached in the background after the start, and on
     * this shared machine one may need its second try.
     */
    private void awaitListed(String agent, String tool) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!names(agentInfo(agent).get("tools")).contains(tool)) {
            assertTrue(System.nanoTime() < deadline, agent + " did not offer " + tool + " within 30 s");
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        }
    }

    private SseClient.Stream run(String agent, RunRequests request, String bearer) {
        SseClient.Stream stream = client.run("/agui/" + agent, request.json(), "Authorization", "Bearer " + bearer);
        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        return stream;
    }

    /** The model calls {@code tool} with {@code arguments}, then answers "Done." after the result. */
    private SseClient.Stream callTool(String agent, String tool, String arguments, String bearer) {
        stub.enqueue(StubResponse.stream().toolCall("call_1", tool, arguments).build());
        stub.enqueue(StubResponse.stream().text("Done.").build());
        return run(agent, RunRequests.fresh().user("use " + tool), bearer);
    }

    private static JsonNode result(SseClient.Stream stream) {
        List<JsonNode> results = stream.ofType("TOOL_CALL_RESULT");
        assertEquals(1, results.size(), stream.raw());
        return results.get(0).get("content");
    }

    private static String outcome(SseClient.Stream stream) {
        JsonNode last = stream.last();
        return last.get("type").asText() + "/" + last.at("/outcome/type").asText();
    }

    /** The tool message the LLM got in its second request. */
    private JsonNode toolMessageSentToModel() {
        JsonNode messages = stub.requests().get(1).get("messages");
        return StreamSupport.stream(messages.spliterator(), false)
                .filter(m -> m.path("role").asText().equals("tool")).findFirst().orElseThrow();
    }

    private JsonNode agentInfo(String name) {
        HttpResponse<String> listing = client.get("/agui/agents", "Authorization", "Bearer " + token);
        assertEquals(200, listing.statusCode(), listing.body());
        for (JsonNode agent : RunRequests.parse(listing.body()).get("agents")) {
            if (agent.get("name").asText().equals(name)) {
                return agent;
            }
        }
        throw new AssertionError("no agent " + name + " in " + listing.body());
    }

    private static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(item -> names.add(item.isTextual() ? item.asText() : item.get("name").asText()));
        return names;
    }

    @Test
    void theReferenceServerOverStdioOffersItsAllowedToolsWithTheirSchemasAndAnswersThem() {
        JsonNode agent = agentInfo("mcp-stdio");
        assertEquals(List.of("mcp__everything__echo", "mcp__everything__get-sum", "mcp__everything__get-tiny-image",
                        "mcp__everything__trigger-long-running-operation"),
                names(agent.get("tools")), "the allow-list, in the server's order; get-env and the rest are left out");
        JsonNode echo = agent.at("/capabilities/tools/items/0");
        assertEquals("string", echo.at("/parameters/properties/message/type").asText(), echo.toString());
        HttpResponse<String> info = client.get("/copilotkit/info", "Authorization", "Bearer " + token);
        assertEquals(echo, RunRequests.parse(info.body()).at("/agents/mcp-stdio/capabilities/tools/items/0"),
                "CopilotKit's /info offers the same tool: " + info.body());

        SseClient.Stream stream = callTool("mcp-stdio", "mcp__everything__echo", "{\"message\":\"hello\"}", token);

        assertEquals("mcp__everything__echo", stream.ofType("TOOL_CALL_START").get(0).get("toolCallName").asText());
        assertEquals("Echo: hello", result(stream).asText());
        assertEquals("Echo: hello", toolMessageSentToModel().get("content").asText());
        assertEquals("RUN_FINISHED/success", outcome(stream));
    }

    @Test
    void theProgressTheReferenceServerReportsIsShownAsAnActivityBeforeTheResult() {
        SseClient.Stream stream = callTool("mcp-stdio", "mcp__everything__trigger-long-running-operation",
                "{\"duration\":1,\"steps\":4}", token);

        List<String> types = stream.types();
        JsonNode snapshot = stream.ofType("ACTIVITY_SNAPSHOT").get(0);
        assertEquals("tool-progress", snapshot.get("activityType").asText());
        assertEquals(0.25, snapshot.at("/content/fraction").asDouble(), snapshot.toString());
        List<JsonNode> deltas = stream.ofType("ACTIVITY_DELTA");
        assertEquals(3, deltas.size(), "one a step: " + types);
        assertEquals("[{\"op\":\"replace\",\"path\":\"/fraction\",\"value\":1.0}]",
                deltas.get(2).get("patch").toString());
        assertTrue(types.lastIndexOf("ACTIVITY_DELTA") < types.indexOf("TOOL_CALL_RESULT"), types.toString());
        assertEquals("RUN_FINISHED/success", outcome(stream));
    }

    @Test
    void anImageResultOfTheReferenceServerOverHttpIsContentPartsAndTextForAClientBeforeOneZero() {
        assertEquals(List.of("echo", "get-resource-reference", "get-tiny-image"),
                names(agentInfo("mcp-http").get("tools")), "prefix: false offers the server's own names");

        JsonNode parts = result(callTool("mcp-http", "get-tiny-image", "{}", token));

        assertTrue(parts.isArray(), parts.toString());
        assertEquals("text", parts.get(0).get("type").asText());
        JsonNode image = parts.get(1);
        assertEquals("image", image.get("type").asText(), parts.toString());
        assertEquals("image/png", image.at("/source/mimeType").asText());
        assertTrue(image.at("/source/value").asText().startsWith("iVBOR"), "the PNG's base64 bytes");
        JsonNode messages = stub.requests().get(1).get("messages");
        assertTrue(messages.toString().contains("data:image/png;base64,iVBOR"),
                "the LLM is shown the image after the tool results: " + messages);

        JsonNode old = result(client.run("/agui/mcp-http", withCall("get-tiny-image", "{}").beforeOneZero().json(),
                "Authorization", "Bearer " + token));
        assertTrue(old.isTextual(), "a client before 1.0 gets the text parts: " + old);
        assertTrue(old.asText().contains("image"), old.asText());
    }

    private RunRequests withCall(String tool, String arguments) {
        stub.enqueue(StubResponse.stream().toolCall("call_2", tool, arguments).build());
        stub.enqueue(StubResponse.stream().text("Done.").build());
        return RunRequests.fresh().user("use " + tool);
    }

    @Test
    void aServerWithOnlyTheOlderHttpSseTransportIsSpokenToOverIt() {
        SseClient.Stream stream = callTool("mcp-sse", "mcp__old__echo", "{\"message\":\"then\"}", token);

        assertEquals("Echo: then", result(stream).asText());
        assertEquals("RUN_FINISHED/success", outcome(stream));
    }

    @Test
    void anEmbeddedResourceOfTheReferenceServerBecomesText() {
        JsonNode content = result(callTool("mcp-http", "get-resource-reference", "{\"resourceType\":\"Text\","
                + "\"resourceId\":1}", token));
        assertTrue(content.isTextual(), content.toString());
        assertTrue(content.asText().contains("[resource demo://resource/dynamic/text/1]\nResource 1: This is a plaintext"),
                content.asText());
    }

    @Test
    void theCallersSignedTokenReachesTheServerWithTheConfiguredHeaderAndTheTraceParent() {
        SseClient.Stream stream = callTool("mcp-fixture", "mcp__wx__whoami", "{}", token);

        assertEquals("Bearer " + token, result(stream).asText());
        McpFixture.Call call = fixture.callsOf("whoami").get(0);
        assertEquals("Bearer " + token, call.authorization());
        assertEquals("fixture-key-value", call.apiKey(), "the configured header, its value from ${AGUI_TEST_FIXTURE_KEY}");
        assertEquals("RUN_FINISHED/success", outcome(stream));
    }

    @Test
    void eachCallIsAnExecuteToolSpanNamingTheServerWhoseTraceTheServerIsHanded() {
        SseClient.Stream stream = callTool("mcp-fixture", "mcp__wx__get_weather", "{\"city\":\"Porto\"}", token);
        String traceId = stream.ofType("RUN_STARTED").get(0).at("/metadata/trace/traceId").asText();

        SpanData tool = awaitSpan(traceId, "execute_tool mcp__wx__get_weather");

        Attributes attributes = tool.getAttributes();
        assertEquals("wx", attributes.get(AttributeKey.stringKey("agui.mcp.server.id")));
        assertEquals("tools/call", attributes.get(AttributeKey.stringKey("mcp.method.name")));
        assertEquals("tcp", attributes.get(AttributeKey.stringKey("network.transport")));
        String traceparent = fixture.callsOf("get_weather").get(0).meta().path("traceparent").asText();
        assertEquals("00-" + traceId + "-" + tool.getSpanId() + "-01", traceparent,
                "the server is handed the call's span as its parent");
    }

    private SpanData awaitSpan(String traceId, String name) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            for (SpanData span : spans.getFinishedSpanItems()) {
                if (span.getTraceId().equals(traceId) && span.getName().equals(name)) {
                    return span;
                }
            }
            assertTrue(System.nanoTime() < deadline, "no span " + name + " in trace " + traceId);
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }

    @Test
    void anApiKeyCallersCallIsRefusedWithoutReachingAServerThatForwardsSignedTokensOnly() {
        SseClient.Stream stream = callTool("mcp-fixture", "mcp__wx__whoami", "{}", "service-key");

        assertTrue(result(stream).asText().startsWith("Error: tool mcp__wx__whoami acts as the signed-in user"),
                result(stream).asText());
        assertTrue(fixture.callsOf("whoami").isEmpty(), "the server never saw the call");
        assertEquals("RUN_FINISHED/success", outcome(stream));
    }

    @Test
    void aToolTheServerReportsAsFailedIsAToolErrorAndTheRunGoesOn() {
        SseClient.Stream stream = callTool("mcp-fixture", "mcp__wx__fail", "{}", token);

        assertEquals("Error: mcp__wx__fail reported an error: the order database is locked", result(stream).asText());
        assertEquals(result(stream).asText(), toolMessageSentToModel().get("content").asText());
        assertEquals("RUN_FINISHED/success", outcome(stream));
    }

    @Test
    void anAnswerThatIsNotJsonIsAToolError() {
        SseClient.Stream stream = callTool("mcp-fixture", "mcp__wx__garbage", "{}", token);

        assertTrue(result(stream).asText().contains("answered with something that is not a JSON-RPC message"),
                result(stream).asText());
        assertEquals("RUN_FINISHED/success", outcome(stream));
    }

    @Test
    void aCallSlowerThanTheTimeoutFailsAndTheServerIsToldToCancelIt() throws Exception {
        SseClient.Stream stream = callTool("mcp-fixture", "mcp__wx__slow", "{}", token);

        assertTrue(result(stream).asText().contains("did not answer mcp__wx__slow within 2000 ms"),
                result(stream).asText());
        assertTrue(fixture.awaitCancelled(Duration.ofSeconds(5)), "notifications/cancelled");
        JsonNode cancelled = fixture.notifications("notifications/cancelled").get(0);
        assertEquals(fixture.callsOf("slow").get(0).id(), cancelled.at("/params/requestId").asLong());
        assertEquals("RUN_FINISHED/success", outcome(stream));
    }

    @Test
    void stoppingTheRunCancelsTheCallInFlight() throws Exception {
        stub.enqueue(StubResponse.stream().toolCall("call_1", "mcp__wx__slow", "{}").build());
        RunRequests request = RunRequests.fresh().user("be slow");
        CompletableFuture<SseClient.Stream> running = CompletableFuture.supplyAsync(() ->
                client.run("/agui/mcp-fixture", request.json(), "Authorization", "Bearer " + token));
        assertTrue(fixture.awaitCall("slow", Duration.ofSeconds(10)), "the call reached the server");

        HttpResponse<String> stop = client.post("/agui/mcp-fixture/stop/" + request.threadId(), "",
                "Authorization", "Bearer " + token);

        assertEquals(200, stop.statusCode(), stop.body());
        assertTrue(fixture.awaitCancelled(Duration.ofSeconds(1)), "cancelled before the 2 s timeout");
        SseClient.Stream stream = running.get();
        assertEquals("RUN_FINISHED/cancelled", outcome(stream));
        assertTrue(stream.ofType("TOOL_CALL_RESULT").isEmpty(), stream.raw());
    }

    @Test
    void aConfirmedToolIsCalledOnlyOnceTheUserApproves() {
        stub.enqueue(StubResponse.stream().toolCall("call_refund", "mcp__wx__refund", "{\"order\":7}").build());
        RunRequests request = RunRequests.fresh().user("refund order 7");
        SseClient.Stream asked = run("mcp-fixture", request, token);

        assertEquals("RUN_FINISHED/interrupt", outcome(asked));
        assertTrue(fixture.callsOf("refund").isEmpty(), "not called before the answer");
        assertTrue(names(agentInfo("mcp-fixture").get("confirmedTools")).contains("mcp__wx__refund"));

        stub.enqueue(StubResponse.stream().text("Refunded.").build());
        RunRequests answer = RunRequests.of(request.threadId(), "run-2");
        storedThread(request.threadId(), token).get("messages").forEach(m -> answer.message((ObjectNode) m));
        String interrupt = asked.last().at("/outcome/interrupts/0/id").asText();
        answer.body().set("resume", RunRequests.parse("{\"r\":[{\"interruptId\":\"" + interrupt
                + "\",\"status\":\"resolved\",\"payload\":{\"approved\":true}}]}").get("r"));
        SseClient.Stream approved = run("mcp-fixture", answer, token);

        assertEquals("RUN_FINISHED/success", outcome(approved));
        assertEquals(1, fixture.callsOf("refund").size());
        assertEquals(7, fixture.callsOf("refund").get(0).arguments().get("order").asInt());
    }

    private JsonNode storedThread(String threadId, String bearer) {
        HttpResponse<String> thread = client.get("/threads/" + threadId, "Authorization", "Bearer " + bearer);
        assertEquals(200, thread.statusCode(), thread.body());
        return RunRequests.parse(thread.body());
    }

    @Test
    void anOversizedResultIsCutWithANote() {
        String content = result(callTool("mcp-fixture", "mcp__wx__big", "{}", token)).asText();

        assertTrue(content.startsWith("x".repeat(10_000) + "\n[The result was cut here: it had 50000 characters"),
                content.substring(9_990, 10_100));
        assertTrue(content.length() < 10_200, "at most the limit and the note");
    }

    @Test
    void aListThatChangedOnTheServerIsOfferedToTheNextRun() throws Exception {
        assertFalse(names(agentInfo("mcp-fixture").get("tools")).contains("mcp__wx__forecast"));
        awaitListener();

        fixture.addTool("forecast");

        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!names(agentInfo("mcp-fixture").get("tools")).contains("mcp__wx__forecast")) {
            assertTrue(System.nanoTime() < deadline, "the new tool was not listed within 10 s");
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
        SseClient.Stream stream = callTool("mcp-fixture", "mcp__wx__forecast", "{}", token);
        assertEquals("forecast done", result(stream).asText());
    }

    private void awaitListener() {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (fixture.notificationListeners() == 0) {
            assertTrue(System.nanoTime() < deadline, "the client never opened the notification stream");
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }

    @Test
    void aServerThatIsDownDoesNotStopTheStartAndReadinessNamesIt() {
        HttpResponse<String> ready = client.get("/q/health/ready");
        JsonNode checks = RunRequests.parse(ready.body()).get("checks");
        JsonNode sources = StreamSupport.stream(checks.spliterator(), false)
                .filter(check -> check.get("name").asText().equals("tool-sources")).findFirst().orElseThrow();

        assertEquals("UP", sources.get("status").asText(), sources.toString());
        assertTrue(sources.at("/data/mcp-fixture~1mcp:down").asText().contains("cannot be reached"),
                sources.toString());
        assertFalse(sources.get("data").has("mcp-fixture/mcp:wx"), "the fixture is reachable");
        assertEquals(List.of("mcp__wx__get_weather", "mcp__wx__chart", "mcp__wx__fail", "mcp__wx__garbage",
                "mcp__wx__slow", "mcp__wx__big", "mcp__wx__whoami", "mcp__wx__refund", "city_weather"),
                names(agentInfo("mcp-fixture").get("tools")).subList(0, 9), "secret is left out; down offers none");
    }

    @Test
    void aProcessThatExitsFailsItsCallAndIsStartedAgain() {
        String before = result(callTool("mcp-restart", "mcp__exiting__pid", "{}", token)).asText();

        SseClient.Stream crashed = callTool("mcp-restart", "mcp__exiting__quit", "{}", token);

        assertTrue(result(crashed).asText().contains("exited with code 3 (its last words: quitting as asked)"),
                result(crashed).asText());
        assertEquals("RUN_FINISHED/success", outcome(crashed));
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        String after = before;
        while (after.equals(before) || after.startsWith("Error")) {
            assertTrue(System.nanoTime() < deadline, "not started again within 15 s; last answer: " + after);
            LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            after = result(callTool("mcp-restart", "mcp__exiting__pid", "{}", token)).asText();
        }
        assertTrue(after.matches("\\d+"), "a new process answers: " + after);
    }

    @Test
    void anHttpToolFillsItsUrlAndAnswersWithTheBodyOrAToolError() {
        SseClient.Stream stream = callTool("mcp-fixture", "city_weather", "{\"city\":\"Lisbon\",\"units\":\"metric\"}",
                "service-key");
        JsonNode body = RunRequests.parse(result(stream).asText());
        assertEquals("Lisbon", body.get("city").asText());
        assertEquals("units=metric", body.get("query").asText());
        assertEquals("Bearer service-key", body.get("auth").asText(), "forwardApiKeys: the API key goes too");

        SseClient.Stream missing = callTool("mcp-fixture", "city_weather", "{\"city\":\"Atlantis\"}", token);
        assertEquals("Error: tool city_weather answered HTTP 404: no such city", result(missing).asText());
        assertEquals("RUN_FINISHED/success", outcome(missing));
    }
}
