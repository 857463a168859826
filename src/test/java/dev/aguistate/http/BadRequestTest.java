package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every bad request is answered with a 4xx JSON body before any stream opens, and the server keeps serving. */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class BadRequestTest extends StubbedLlmTestBase {

    private static final String JSON = "application/json";
    private static final String SSE = "text/event-stream";


    static Stream<Arguments> badRequests() {
        String valid = RunRequests.of("t", "r").user("hi").json();
        return Stream.of(
                Arguments.of("malformed JSON", "/agui", "{\"threadId\": ", JSON, SSE, 400, "malformed_json", "line 1"),
                Arguments.of("trailing garbage", "/agui", "{} {}", JSON, SSE, 400, "malformed_json", "malformed JSON"),
                Arguments.of("missing threadId", "/agui", "{\"runId\":\"r\",\"messages\":[]}", JSON, SSE, 422,
                        "invalid_run_input", "threadId"),
                Arguments.of("numeric threadId", "/agui", "{\"threadId\":7,\"runId\":\"r\",\"messages\":[]}", JSON, SSE,
                        422, "invalid_run_input", "threadId"),
                Arguments.of("missing runId", "/agui", "{\"threadId\":\"t\",\"messages\":[]}", JSON, SSE, 422,
                        "invalid_run_input", "runId"),
                Arguments.of("missing messages", "/agui", "{\"threadId\":\"t\",\"runId\":\"r\"}", JSON, SSE, 422,
                        "invalid_run_input", "messages"),
                Arguments.of("messages not an array", "/agui", "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":{}}",
                        JSON, SSE, 422, "invalid_run_input", "messages"),
                Arguments.of("message without id", "/agui",
                        "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}", JSON,
                        SSE, 422, "invalid_run_input", "messages[0].id"),
                Arguments.of("unknown role", "/agui",
                        "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"1\",\"role\":\"robot\",\"content\":\"x\"}]}",
                        JSON, SSE, 422, "invalid_run_input", "robot"),
                Arguments.of("tool message without toolCallId", "/agui",
                        "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"1\",\"role\":\"tool\",\"content\":\"x\"}]}",
                        JSON, SSE, 422, "invalid_run_input", "toolCallId"),
                Arguments.of("body is an array", "/agui", "[]", JSON, SSE, 422, "invalid_run_input", "JSON object"),
                Arguments.of("unknown agent", "/agui/nobody", valid, JSON, SSE, 404, "unknown_agent", "nobody"),
                Arguments.of("wrong content type", "/agui", valid, "text/plain", SSE, 415, "unsupported_media_type",
                        "application/json"),
                Arguments.of("Accept excludes event streams", "/agui", valid, JSON, "application/json", 406,
                        "not_acceptable", "text/event-stream"),
                Arguments.of("Accept rejects event streams by q=0", "/agui", valid, JSON,
                        "text/event-stream;q=0, application/json", 406, "not_acceptable", "text/event-stream"),
                Arguments.of("body over 1 MiB", "/agui", "{\"pad\":\"" + "x".repeat(1_100_000) + "\"}", JSON, SSE, 413,
                        "request_too_large", "1048576"),
                Arguments.of("nesting deeper than 1000", "/agui", withState("[".repeat(1001) + "]".repeat(1001)), JSON,
                        SSE, 400, "malformed_json", "limit"),
                Arguments.of("number of more than 1000 digits", "/agui", withState("9".repeat(1001)), JSON, SSE, 400,
                        "malformed_json", "limit"),
                Arguments.of("member name over 50,000 characters", "/agui",
                        withState("{\"" + "k".repeat(50_001) + "\":1}"), JSON, SSE, 400, "malformed_json", "limit"),
                Arguments.of("duplicate member names", "/agui", withState("{\"a\":1,\"a\":2}"), JSON, SSE, 400,
                        "malformed_json", "Duplicate"),
                Arguments.of("NaN", "/agui", withState("NaN"), JSON, SSE, 400, "malformed_json", "NaN"),
                Arguments.of("a number a double cannot hold", "/agui", withState("1e400"), JSON, SSE, 422,
                        "invalid_run_input", "state.value"),
                Arguments.of("a number that would become 0", "/agui", withState("1e-400"), JSON, SSE, 422,
                        "invalid_run_input", "state.value"),
                Arguments.of("a lone surrogate", "/agui", withState("\"\\ud800\""), JSON, SSE, 422,
                        "invalid_run_input", "lone surrogate"),
                Arguments.of("a null context entry", "/agui",
                        "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"context\":[null]}", JSON, SSE, 422,
                        "invalid_run_input", "context[0]"),
                Arguments.of("a threadId that forges a log line", "/agui",
                        "{\"threadId\":\"t\\n13:00:00.000 ERROR [forged]\",\"runId\":\"r\",\"messages\":[]}", JSON,
                        SSE, 422, "invalid_run_input", "threadId"),
                Arguments.of("a threadId longer than a store key may be", "/agui",
                        "{\"threadId\":\"" + "t".repeat(3000) + "\",\"runId\":\"r\",\"messages\":[]}", JSON, SSE, 422,
                        "invalid_run_input", "threadId"),
                Arguments.of("a threadId with NUL", "/agui",
                        "{\"threadId\":\"t\\u0000\",\"runId\":\"r\",\"messages\":[]}", JSON, SSE, 422,
                        "invalid_run_input", "threadId"));
    }

    /** A valid request whose state holds {@code value} (JSON text) under "value". */
    private static String withState(String value) {
        return "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"state\":{\"value\":" + value + "}}";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void rejectedBeforeTheStreamWithAJsonError(String name, String path, String body, String contentType,
                                                String accept, int status, String code, String mentions) {
        HttpResponse<String> response = client.post(path, body, "Content-Type", contentType, "Accept", accept);
        assertJsonError(response, status, code, mentions);
    }

    @Test
    void overlongUtf8IsMalformedJsonNotASlash() {
        byte[] head = "{\"threadId\":\"t".getBytes(StandardCharsets.UTF_8);
        byte[] tail = "x\",\"runId\":\"r\",\"messages\":[]}".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[head.length + 2 + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        body[head.length] = (byte) 0xc0;
        body[head.length + 1] = (byte) 0xaf;
        System.arraycopy(tail, 0, body, head.length + 2, tail.length);

        HttpResponse<String> response = client.post("/agui", body, "Content-Type", JSON, "Accept", SSE);
        assertJsonError(response, 400, "malformed_json", "UTF-8");
    }

    /** The error is JSON with the expected status and code, shows no internals, and the server goes on serving. */
    private void assertJsonError(HttpResponse<String> response, int status, String code, String mentions) {
        assertEquals(status, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("application/json"));
        JsonNode error = RunRequests.parse(response.body());
        assertEquals(status, error.get("status").asInt());
        assertEquals(code, error.get("code").asText());
        assertTrue(error.get("message").asText().contains(mentions), error.get("message").asText());
        assertFalse(response.body().contains("dev.aguistate") || response.body().contains("Exception")
                || response.body().contains("\tat "), "no internals in an error: " + response.body());

        stub.enqueue(StubResponse.stream().text("fine").build());
        RunRequests next = RunRequests.fresh().user("still there?");
        SseClient.Stream stream = client.run("/agui", next.json());
        EventStreamVerifier.verify(stream.events(), next.threadId(), next.runId());
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
    }
}
