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
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream failures end a run with exactly one sanitized RUN_ERROR carrying a stable code; a client that goes
 * away cancels the upstream request.
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class LlmFailureTest extends StubbedLlmTestBase {

    private static final String SECRET = "sk-upstream-secret-detail";


    static Stream<Arguments> upstreamFailures() {
        String body = "{\"error\":{\"message\":\"" + SECRET + "\",\"type\":\"x\"}}";
        return Stream.of(
                Arguments.of("401", StubResponse.error(401, body), "llm_authentication_failed"),
                Arguments.of("403", StubResponse.error(403, body), "llm_authentication_failed"),
                Arguments.of("429", StubResponse.error(429, body), "llm_rate_limited"),
                Arguments.of("500", StubResponse.error(500, body), "llm_unavailable"),
                Arguments.of("503", StubResponse.error(503, body), "llm_unavailable"),
                Arguments.of("400", StubResponse.error(400, body), "llm_request_rejected"),
                Arguments.of("404", StubResponse.error(404, body), "llm_model_not_found"),
                Arguments.of("malformed chunk",
                        StubResponse.stream().text("a", "b", "c").malformedAfter(2).build(), "llm_bad_response"),
                Arguments.of("connection dropped mid-stream",
                        StubResponse.stream().text("a", "b", "c", "d").dropAfter(3)
                                .delayBetweenChunks(Duration.ofMillis(50)).build(), "llm_connection_lost"),
                Arguments.of("error object inside a 200 stream",
                        StubResponse.stream().text("a").errorAfter(2, body).build(), "llm_unavailable"),
                Arguments.of("200 with an HTML page",
                        StubResponse.body(200, "text/html", "<html><body>" + SECRET + "</body></html>\n"),
                        "llm_bad_response"),
                Arguments.of("200 with an empty body",
                        StubResponse.body(200, "text/event-stream", ""), "llm_bad_response"),
                Arguments.of("stream ended without finish_reason or [DONE]",
                        StubResponse.stream().text("a", "b").endAfter(2).build(), "llm_connection_lost"),
                Arguments.of("token limit inside a tool call",
                        StubResponse.stream().toolCall("call_1", "get_weather", "{\"location\":\"Par")
                                .finishReason("length").build(), "llm_output_truncated"),
                Arguments.of("content filter",
                        StubResponse.stream().text("Here is").finishReason("content_filter").build(),
                        "llm_content_filtered"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("upstreamFailures")
    void upstreamFailureEndsTheRunWithOneSanitizedRunError(String name, StubResponse failure, String code) {
        stub.setDefault(failure); // every attempt fails alike: 429 and 503 are tried again (agui.llm.max-retries)
        RunRequests request = RunRequests.fresh().user("hello");

        SseClient.Stream stream = client.run("/agui", request.json());

        assertEquals(200, stream.response().statusCode(), "the stream was already open");
        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals(1, stream.ofType("RUN_ERROR").size());
        JsonNode error = stream.last();
        assertEquals("RUN_ERROR", error.get("type").asText());
        assertEquals(code, error.get("code").asText());
        assertFalse(error.get("message").asText().isBlank());
        assertFalse(stream.raw().contains(SECRET), "the upstream's error body never reaches the client");
        assertFalse(stream.raw().contains("Exception") || stream.raw().contains("at dev."), stream.raw());
        assertServerStillWorks();
    }

    @Test
    void anUpstreamThatStallsEndsWithIdleTimeoutAfterKeepAlivesAndIsCancelled() {
        stub.enqueue(StubResponse.stream().text("thinking", "...", "never", "sent").stallAfter(2).build());
        RunRequests request = RunRequests.fresh().user("hello");

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("llm_idle_timeout", stream.last().get("code").asText());
        assertFalse(stream.comments().isEmpty(), "keep-alive comments (every 300 ms in this profile) during the silence");
        assertTrue(stream.raw().contains("\n\n: keep-alive\n\n"), "a comment is a frame of its own");
        assertTrue(stub.awaitClientDisconnect(Duration.ofSeconds(1)), "the stalled upstream request was aborted");
    }

    @Test
    void clientDisconnectCancelsTheUpstreamRequest() {
        stub.enqueue(StubResponse.stream().text("one", "two", "three", "four").stallAfter(3).build());
        RunRequests request = RunRequests.fresh().user("hello");

        List<JsonNode> seen = client.runUntil("/agui", request.json(),
                e -> "TEXT_MESSAGE_CONTENT".equals(e.path("type").asText()));

        assertEquals("TEXT_MESSAGE_CONTENT", seen.get(seen.size() - 1).get("type").asText());
        assertTrue(stub.awaitClientDisconnect(Duration.ofSeconds(1)),
                "the server closed its LLM request within a second of its client leaving");
        assertServerStillWorks();
    }

    @Test
    void clientDisconnectBeforeTheFirstTokenStillCancelsTheUpstreamRequest() {
        // Only the role chunk is sent: langchain4j has produced no callback (and so no handle) yet.
        stub.enqueue(StubResponse.stream().text("late").stallAfter(1).build());
        RunRequests request = RunRequests.fresh().user("hello");

        List<JsonNode> seen = client.runUntil("/agui", request.json(),
                e -> "RUN_STARTED".equals(e.path("type").asText()));

        assertEquals(1, seen.size());
        assertTrue(stub.awaitClientDisconnect(Duration.ofSeconds(1)),
                "the server closed its LLM request within a second of its client leaving");
        assertServerStillWorks();
    }

    @Test
    void aClientThatLeavesMidRunStopsItKeepingOnlyItsQuestionAndFreesItsThread() {
        stub.enqueue(StubResponse.stream().text("Hello Bob.").build());
        RunRequests first = RunRequests.fresh().user("I am Bob");
        client.run("/agui", first.json());
        stub.enqueue(StubResponse.stream().text("half", " an", " answer").stallAfter(2).build());

        client.runUntil("/agui", RunRequests.of(first.threadId(), "run-left").user("Tell me more").json(),
                e -> "TEXT_MESSAGE_CONTENT".equals(e.path("type").asText()));

        assertTrue(stub.awaitClientDisconnect(Duration.ofSeconds(1)), "the run was cancelled");
        // The thread is given back as the cancelled run ends, just after the client left: bounded wait for it.
        stub.enqueue(StubResponse.stream().text("You are Bob.").build());
        RunRequests next = RunRequests.of(first.threadId(), "run-next").user("Who am I?");
        SseClient.Stream stream = runOnceTheThreadIsFree(next, Duration.ofSeconds(5));
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
        JsonNode messages = storedThread(first.threadId()).get("messages");
        assertEquals(List.of("I am Bob", "Hello Bob.", "Tell me more", "Who am I?", "You are Bob."),
                messages.findValuesAsText("content"),
                "of the run the client left, its starting checkpoint (the question) is kept, the cut answer is not");
    }

    private SseClient.Stream runOnceTheThreadIsFree(RunRequests request, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        request.multitask("reject"); // a busy thread answers at once, so the bound is the test's
        while (true) {
            SseClient.Stream stream = client.run("/agui", request.json());
            if (stream.response().statusCode() != 409) {
                return stream;
            }
            assertTrue(System.nanoTime() < deadline, "the thread was still busy after " + bound);
        }
    }

    private void assertServerStillWorks() {
        stub.enqueue(StubResponse.stream().text("still here").build());
        RunRequests next = RunRequests.fresh().user("again");
        SseClient.Stream stream = client.run("/agui", next.json());
        EventStreamVerifier.verify(stream.events(), next.threadId(), next.runId());
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
    }
}
