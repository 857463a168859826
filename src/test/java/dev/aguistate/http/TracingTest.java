package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.TokensProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * With the OpenTelemetry SDK on, a run is a tree of GenAI spans joined to the request's trace, RUN_STARTED names it,
 * and token usage is a metric. The LLM is the OpenAI-wire stub; the spans are read from an in-memory exporter.
 */
@QuarkusTest
@TestProfile(TokensProfile.class)
class TracingTest extends StubbedLlmTestBase {

    private static final String[] SERVICE = {"Authorization", "Bearer " + TokensProfile.SERVICE_KEY};
    private static final List<String> CONTENT_ATTRIBUTES = List.of("gen_ai.input.messages", "gen_ai.output.messages",
            "gen_ai.system_instructions", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result");

    @Inject
    InMemorySpanExporter spans;

    private static String attribute(SpanData span, String key) {
        Object value = span.getAttributes().get(AttributeKey.stringKey(key));
        return value == null ? null : value.toString();
    }

    /** The finished spans of a trace, once {@code name} is among them (export is batched). */
    private List<SpanData> awaitTrace(String traceId, String name) {
        return awaitTrace(traceId, name, trace -> true);
    }

    /** The finished spans of a trace, once {@code name} is among them and {@code complete} holds. */
    private List<SpanData> awaitTrace(String traceId, String name, Predicate<List<SpanData>> complete) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            List<SpanData> trace = spans.getFinishedSpanItems().stream()
                    .filter(s -> s.getTraceId().equals(traceId)).toList();
            if (trace.stream().anyMatch(s -> s.getName().equals(name)) && complete.test(trace)) {
                return trace;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("no span " + name + " in trace " + traceId + ": " + spans.getFinishedSpanItems());
    }

    private static SpanData only(List<SpanData> trace, String name) {
        List<SpanData> named = trace.stream().filter(s -> s.getName().equals(name)).toList();
        assertEquals(1, named.size(), name + " in " + trace);
        return named.get(0);
    }

    private static double metric(String body, String type) {
        Matcher line = Pattern.compile("(?m)^gen_ai_client_token_usage_sum\\{([^}]*)} (\\S+)$").matcher(body);
        double sum = 0;
        while (line.find()) {
            if (line.group(1).contains("gen_ai_token_type=\"" + type + "\"")
                    && line.group(1).contains("gen_ai_request_model=\"gpt-test\"")) {
                sum += Double.parseDouble(line.group(2));
            }
        }
        return sum;
    }

    @Test
    void aRunWithAToolIsAThreeLevelTreeInTheRequestsTrace() {
        Random random = new Random();
        String traceId = HexFormat.of().formatHex(random.ints(16, 0, 256).collect(
                java.io.ByteArrayOutputStream::new, java.io.ByteArrayOutputStream::write, (a, b) -> { }).toByteArray());
        String callerSpan = "00f067aa0ba902b7";
        stub.enqueue(StubResponse.stream().toolCall("call-1", "clock", "{}").usage(12, 5).build());
        stub.enqueue(StubResponse.stream().text("It is noon.").usage(20, 4).build());
        String metricsBefore = given().get("/q/metrics").then().extract().asString();
        RunRequests request = RunRequests.fresh().user("What time is it? secret-prompt-text");

        SseClient.Stream stream = client.run("/agui/stateless", request.json(), SERVICE[0], SERVICE[1],
                "traceparent", "00-" + traceId + "-" + callerSpan + "-01");

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        JsonNode started = stream.ofType("RUN_STARTED").get(0);
        assertEquals(traceId, started.path("metadata").path("trace").path("traceId").asText(), started.toString());
        // the HTTP server's span, between the caller's and the run's, ends (and is exported) after the stream
        List<SpanData> trace = awaitTrace(traceId, "invoke_agent stateless",
                finished -> descendsFrom(only(finished, "invoke_agent stateless"), callerSpan, finished));
        SpanData run = only(trace, "invoke_agent stateless");
        assertEquals(started.path("metadata").path("trace").path("spanId").asText(), run.getSpanId());
        assertEquals("invoke_agent", attribute(run, "gen_ai.operation.name"));
        assertEquals("stateless", attribute(run, "gen_ai.agent.name"));
        assertEquals(request.threadId(), attribute(run, "gen_ai.conversation.id"));
        assertEquals(request.runId(), attribute(run, "agui.run.id"));
        assertEquals("success", attribute(run, "agui.run.outcome"));
        assertTrue(descendsFrom(run, callerSpan, trace), "the run joins the caller's span: " + trace);

        List<SpanData> chats = trace.stream().filter(s -> s.getName().equals("chat gpt-test")).toList();
        assertEquals(2, chats.size(), trace.toString());
        SpanData first = chats.stream().filter(s -> "tool_calls".equals(finishReason(s))).findFirst().orElseThrow();
        SpanData second = chats.stream().filter(s -> "stop".equals(finishReason(s))).findFirst().orElseThrow();
        for (SpanData chat : chats) {
            assertEquals(run.getSpanId(), chat.getParentSpanId());
            assertEquals(SpanKind.CLIENT, chat.getKind());
            assertEquals("chat", attribute(chat, "gen_ai.operation.name"));
            assertEquals("gpt-test", attribute(chat, "gen_ai.request.model"));
            assertEquals(request.threadId(), attribute(chat, "gen_ai.conversation.id"));
        }
        assertEquals(12L, first.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens")));
        assertEquals(5L, first.getAttributes().get(AttributeKey.longKey("gen_ai.usage.output_tokens")));
        assertEquals(20L, second.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens")));

        SpanData tool = only(trace, "execute_tool clock");
        assertEquals(first.getSpanId(), tool.getParentSpanId(), "the tool is a child of the call that asked for it");
        assertEquals("execute_tool", attribute(tool, "gen_ai.operation.name"));
        assertEquals("clock", attribute(tool, "gen_ai.tool.name"));
        assertEquals("call-1", attribute(tool, "gen_ai.tool.call.id"));

        for (SpanData span : List.of(run, first, second, tool)) {
            for (String key : CONTENT_ATTRIBUTES) {
                assertFalse(span.getAttributes().asMap().containsKey(AttributeKey.stringKey(key)),
                        span.getName() + " records " + key + " though content capture is off");
            }
            assertFalse(span.getAttributes().toString().contains("secret-prompt-text"), span.toString());
            assertFalse(span.getAttributes().toString().contains("12:00"), "no tool result: " + span);
        }

        String metricsAfter = given().get("/q/metrics").then().extract().asString();
        assertEquals(32, metric(metricsAfter, "input") - metric(metricsBefore, "input"), 0.001, metricsAfter);
        assertEquals(9, metric(metricsAfter, "output") - metric(metricsBefore, "output"), 0.001);
    }

    private static String finishReason(SpanData chat) {
        List<String> reasons = chat.getAttributes().get(AttributeKey.stringArrayKey("gen_ai.response.finish_reasons"));
        return reasons == null || reasons.isEmpty() ? null : reasons.get(0);
    }

    /** Whether {@code span}'s ancestors in {@code trace} lead to the span id {@code ancestor} (outside the server). */
    private static boolean descendsFrom(SpanData span, String ancestor, List<SpanData> trace) {
        SpanData current = span;
        while (current != null) {
            if (current.getParentSpanId().equals(ancestor)) {
                return true;
            }
            String parent = current.getParentSpanId();
            current = trace.stream().filter(s -> s.getSpanId().equals(parent)).findFirst().orElse(null);
        }
        return false;
    }

    @Test
    void aFailedCallAndItsRunCarryTheStableErrorCode() {
        stub.enqueue(StubResponse.error(401, "{\"error\":{\"message\":\"bad key\"}}"));
        RunRequests request = RunRequests.fresh().user("hi");

        SseClient.Stream stream = client.run("/agui/chat", request.json(), SERVICE);

        assertEquals("llm_authentication_failed", stream.last().path("code").asText(), stream.raw());
        String traceId = stream.ofType("RUN_STARTED").get(0).path("metadata").path("trace").path("traceId").asText();
        assertNotNull(traceId);
        List<SpanData> trace = awaitTrace(traceId, "invoke_agent chat");
        for (SpanData span : List.of(only(trace, "invoke_agent chat"), only(trace, "chat gpt-test"))) {
            assertEquals(StatusCode.ERROR, span.getStatus().getStatusCode(), span.toString());
            assertEquals("llm_authentication_failed", attribute(span, "error.type"));
        }
    }
}
