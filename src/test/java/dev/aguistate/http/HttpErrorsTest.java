package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the HTTP layer answers by itself: every error is JSON {@code {"status","code","message"}}, never an HTML page
 * or an empty body, and no path a client makes up becomes a metrics tag.
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class HttpErrorsTest extends StubbedLlmTestBase {

    static Stream<Arguments> wrongMethods() {
        return Stream.of(
                Arguments.of("GET", "/agui", "POST"),
                Arguments.of("GET", "/agui/chat", "POST"),
                Arguments.of("PUT", "/agui/recipe", "POST"),
                Arguments.of("DELETE", "/agui/agents", "GET"),
                Arguments.of("POST", "/threads/" + UUID.randomUUID(), "DELETE"),
                Arguments.of("PUT", "/threads", "GET"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("wrongMethods")
    void aMethodThePathDoesNotTakeIsA405NamingTheOnesItDoes(String method, String path, String allowed) {
        Response response = given().request(method, path);

        JsonNode error = assertJsonError(response, 405, "method_not_allowed");
        String allow = response.header("Allow");
        assertTrue(allow != null && allow.contains(allowed), "Allow: " + allow);
        assertTrue(error.get("message").asText().contains(allowed), error.toString());
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"/threads/a/b", "/agui/chat/more", "/nothing-here",
        "/q/nothing-here"})
    void anUnknownPathIsAJson404(String path) {
        assertJsonError(given().get(path), 404, "not_found");
        assertJsonError(given().contentType("application/json").body("{}").post(path), 404, "not_found");
    }

    @Test
    void aPageParameterThatIsNotANumberIsA400() {
        assertJsonError(given().get("/threads?offset=abc"), 400, "invalid_page");
        assertJsonError(given().get("/threads?limit=1e3"), 400, "invalid_page");
        given().get("/threads?offset=0&limit=5").then().statusCode(200);
    }

    @Test
    void whatAResourceCannotAnswerInIsAJson406() {
        assertJsonError(given().accept("text/plain").get("/threads"), 406, "not_acceptable");
    }

    @Test
    void aBodyOverQuarkusLimitIsAJson413WithoutBeingRead() throws IOException {
        // Announced, never sent: the answer must come from the headers alone, and the connection must then close.
        JsonNode error = runRequestUntilClosed("Content-Length: 20000000\r\n\r\n", 413);

        assertEquals("request_too_large", error.get("code").asText());
        assertTrue(error.get("message").asText().contains("quarkus.http.limits.max-body-size"), error.toString());
    }

    @Test
    void aBodyThatNeverArrivesWhollyIsAJson408AndTheConnectionCloses() throws IOException {
        // Announces 100 bytes and sends 11: the answer must come once agui.http.request-body-timeout (2 s in this
        // profile) has passed, not when the connection's idle timeout (30 minutes) closes it without one.
        JsonNode error = runRequestUntilClosed("Content-Length: 100\r\n\r\n{\"threadId\"", 408);

        assertEquals("request_timeout", error.get("code").asText());
        assertTrue(error.get("message").asText().contains("agui.http.request-body-timeout"), error.toString());
        given().contentType("application/json").body("{}").post("/agui").then().statusCode(422);
    }

    /**
     * Writes a run request's headers, ending with {@code rest} (the body's length and what is sent of it), and
     * reads until the server closes the connection (at most 10 s): its answer must be a JSON error of that status.
     */
    private static JsonNode runRequestUntilClosed(String rest, int status) throws IOException {
        try (Socket socket = new Socket("localhost", SseClient.testPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /agui HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Accept: text/event-stream\r\n" + rest).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String response = readToEnd(socket.getInputStream());

            assertTrue(response.startsWith("HTTP/1.1 " + status), response);
            JsonNode error = RunRequests.parse(response.substring(response.indexOf("\r\n\r\n") + 4));
            assertEquals(status, error.get("status").asInt());
            return error;
        }
    }

    @Test
    void aFailureNobodyAnsweredIsAJson500WithoutInternals() {
        for (String path : new String[] {"/test-failures/resource", FailingEndpoints.ROUTE}) {
            // A browser's Accept: frameworks answer it with an HTML error page.
            Response response = given().accept("text/html,*/*;q=0.8").get(path);
            assertJsonError(response, 500, "internal_error");
            assertFalse(response.asString().contains(FailingEndpoints.SECRET), response.asString());
            assertFalse(response.asString().contains("IllegalStateException"), response.asString());
        }
    }

    @Test
    void pathsClientsMakeUpNeverBecomeMetricTags() {
        String id = UUID.randomUUID().toString();
        given().post("/threads/" + id + "-post");
        given().get("/threads/" + id + "-get");
        given().delete("/threads/" + id + "-delete");
        given().get("/agui/" + id + "-agent");
        given().contentType("application/json").body("{}").post("/agui/" + id + "-unknown-agent");
        given().get("/threads/" + id + "/deeper");
        given().get("/" + id + "-nowhere");
        given().get("/threads?offset=" + id);

        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("uri=\"/threads/{threadId}\""), "thread requests are tagged by their route");
        assertFalse(metrics.contains(id), "a client's path became a tag:\n" + metricLines(metrics, id));
    }

    /**
     * A path that is not in its normal form is refused, not served as the path it normalises to: a client could
     * otherwise reach one endpoint through endless spellings, each a new metrics tag (120 filled the tag cap). What
     * Vert.x Web refuses before any route (a request without Host) is a JSON 400 too.
     */
    @Test
    void aPathNotInItsNormalFormIsAJson400AndNeverATag() throws IOException {
        String id = UUID.randomUUID().toString();
        for (String path : List.of("/agui/" + id + "/%2e%2e/%2e%2e/q/health/live", "/agui/" + id + "/../agents",
                "/agui/" + id + "-%61gent/./x", "/threads/" + id + "/%2E%2E")) {
            String[] answer = rawGet(path);
            assertEquals("400", answer[0], path + ": " + answer[1]);
            assertEquals("invalid_path", RunRequests.parse(answer[1]).get("code").asText(), path);
        }
        // An HTTP/1.1 request without Host: refused by Vert.x Web before any route.
        String[] hostless = raw("GET /threads HTTP/1.1\r\nConnection: close\r\n\r\n");
        assertEquals("400", hostless[0], hostless[1]);
        assertEquals("bad_request", RunRequests.parse(hostless[1]).get("code").asText());

        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertFalse(metrics.contains(id), "a client's path became a tag:\n" + metricLines(metrics, id));
    }

    /** {@code GET path}, the path sent exactly as given: the status and the body. */
    private static String[] rawGet(String path) throws IOException {
        return raw("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    }

    /** The request sent exactly as given: the status and the body, which must be JSON. */
    private static String[] raw(String request) throws IOException {
        try (Socket socket = new Socket("localhost", SseClient.testPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            String response = readToEnd(socket.getInputStream());
            assertTrue(response.toLowerCase(java.util.Locale.ROOT).contains("content-type: application/json"), response);
            return new String[] {response.substring(9, 12), response.substring(response.indexOf("\r\n\r\n") + 4)};
        }
    }

    /** A thread id that breaks the id rules (here NUL, which PostgreSQL cannot store) is 422 before any store. */
    @Test
    void aThreadIdBreakingTheIdRulesIsA422OnTheThreadApi() throws IOException {
        for (String path : List.of("/threads/%00", "/threads/%00/messages")) {
            String[] answer = rawGet(path);
            assertEquals("422", answer[0], answer[1]);
            assertEquals("invalid_thread_id", RunRequests.parse(answer[1]).get("code").asText());
        }
        given().urlEncodingEnabled(false).delete("/threads/%00").then().statusCode(422)
                .body("code", org.hamcrest.Matchers.equalTo("invalid_thread_id"));
    }

    private static JsonNode assertJsonError(Response response, int status, String code) {
        assertEquals(status, response.statusCode(), response.asString());
        assertTrue(String.valueOf(response.contentType()).startsWith("application/json"),
                "content type " + response.contentType() + ": " + response.asString());
        JsonNode error = RunRequests.parse(response.asString());
        assertEquals(status, error.get("status").asInt());
        assertEquals(code, error.get("code").asText());
        assertFalse(error.get("message").asText().isBlank());
        return error;
    }

    private static String readToEnd(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    private static String metricLines(String metrics, String id) {
        return metrics.lines().filter(line -> line.contains(id)).reduce("", (a, b) -> a + b + "\n");
    }
}
