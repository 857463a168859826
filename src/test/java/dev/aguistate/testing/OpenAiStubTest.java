package dev.aguistate.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.CompleteToolCall;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.PartialToolCallContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Drives the real langchain4j OpenAI client (JDK HTTP client) against {@link OpenAiStub}. */
@Execution(ExecutionMode.CONCURRENT)
class OpenAiStubTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    private OpenAiStub stub;
    private OpenAiStreamingChatModel model;

    @BeforeEach
    void startStub() {
        stub = OpenAiStub.start();
        model = OpenAiStreamingChatModel.builder()
                .baseUrl(stub.baseUrl())
                .apiKey("test-key")
                .modelName("gpt-test")
                .build();
    }

    @AfterEach
    void stopStub() {
        stub.close();
    }

    @Test
    void textDeltasArriveInOrderAndCompleteWithStop() throws Exception {
        stub.enqueue(StubResponse.stream().text("Hel", "lo", " wörld 🌍").usage(12, 7).build());

        Recorder recorder = chat();
        ChatResponse response = recorder.awaitCompletion();

        assertEquals(List.of("Hel", "lo", " wörld 🌍"), recorder.partials);
        assertEquals("Hello wörld 🌍", response.aiMessage().text());
        assertEquals(FinishReason.STOP, response.finishReason());
        assertUsage(12, 7, response.tokenUsage());
    }

    @Test
    void recordsRequestBodyAndHeaders() throws Exception {
        stub.enqueue(StubResponse.stream().text("ok").build());

        chat().awaitCompletion();

        assertEquals(1, stub.requests().size());
        JsonNode request = stub.lastRequest();
        assertEquals("gpt-test", request.path("model").asText());
        assertTrue(request.path("stream").asBoolean());
        assertTrue(request.path("stream_options").path("include_usage").asBoolean());
        assertEquals("user", request.path("messages").path(0).path("role").asText());
        assertEquals("hi", request.path("messages").path(0).path("content").asText());
        Map<String, String> headers = stub.requestHeaders().get(0);
        assertEquals("Bearer test-key", headers.get("authorization"));
        assertEquals("application/json", headers.get("content-type"));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 20240611})
    void toolCallArgumentsSplitAtRandomPositionsReassemble(long seed) throws Exception {
        String arguments = "{\"location\":\"Paris\",\"note\":\"naïve 🌍 \\\"quoted\\\"\",\"days\":[1,2,3]}";
        stub.enqueue(StubResponse.stream()
                .toolCall("call_1", "get_weather", arguments)
                .randomArgumentSplits(seed)
                .build());

        Recorder recorder = chat();
        ChatResponse response = recorder.awaitCompletion();

        assertTrue(recorder.partialToolCalls.size() > 1, "arguments should arrive in several fragments");
        StringBuilder reassembled = new StringBuilder();
        recorder.partialToolCalls.forEach(partial -> reassembled.append(partial.partialArguments()));
        assertEquals(arguments, reassembled.toString());
        assertEquals(1, recorder.completeToolCalls.size());
        ToolExecutionRequest call = recorder.completeToolCalls.get(0).toolExecutionRequest();
        assertEquals("call_1", call.id());
        assertEquals("get_weather", call.name());
        assertEquals(arguments, call.arguments());
        assertEquals(FinishReason.TOOL_EXECUTION, response.finishReason());
        assertEquals(List.of(call), response.aiMessage().toolExecutionRequests());
    }

    @Test
    void explicitArgumentChunkSizesCycle() throws Exception {
        stub.enqueue(StubResponse.stream()
                .toolCall("call_1", "f", "{\"a\":\"bcdef\"}")
                .argumentChunks(1, 3)
                .build());

        Recorder recorder = chat();
        recorder.awaitCompletion();

        List<String> fragments = recorder.partialToolCalls.stream().map(PartialToolCall::partialArguments).toList();
        assertEquals(List.of("{", "\"a\"", ":", "\"bc", "d", "ef\"", "}"), fragments);
    }

    @Test
    void parallelToolCallsBothComplete() throws Exception {
        stub.enqueue(StubResponse.stream()
                .text("Checking.")
                .toolCall("call_1", "get_weather", "{\"location\":\"Paris\"}")
                .toolCall("call_2", "get_time", "{}")
                .argumentChunks(4)
                .build());

        Recorder recorder = chat();
        ChatResponse response = recorder.awaitCompletion();

        assertEquals(2, recorder.completeToolCalls.size());
        CompleteToolCall first = recorder.completeToolCalls.get(0);
        CompleteToolCall second = recorder.completeToolCalls.get(1);
        assertEquals(0, first.index());
        assertEquals("call_1", first.toolExecutionRequest().id());
        assertEquals("{\"location\":\"Paris\"}", first.toolExecutionRequest().arguments());
        assertEquals(1, second.index());
        assertEquals("call_2", second.toolExecutionRequest().id());
        assertEquals("get_time", second.toolExecutionRequest().name());
        assertEquals("{}", second.toolExecutionRequest().arguments());
        assertTrue(recorder.partialToolCalls.stream().anyMatch(partial -> partial.index() == 1));
        assertEquals("Checking.", response.aiMessage().text());
        assertEquals(2, response.aiMessage().toolExecutionRequests().size());
        assertEquals(FinishReason.TOOL_EXECUTION, response.finishReason());
    }

    @Test
    void finishReasonCanBeOverridden() throws Exception {
        stub.enqueue(StubResponse.stream().text("truncat").finishReason("length").build());

        assertEquals(FinishReason.LENGTH, chat().awaitCompletion().finishReason());
    }

    @ParameterizedTest
    @ValueSource(longs = {7, 8, 9})
    void framesSplitAtArbitraryBytesStillParse(long seed) throws Exception {
        stub.enqueue(StubResponse.stream()
                .text("Grüße, ", "世界 ", "🌍🚀")
                .toolCall("call_1", "echo", "{\"text\":\"héllo 🌍\"}")
                .randomArgumentSplits(seed)
                .usage(3, 4)
                .splitFramesAtBytes(seed)
                .build());

        Recorder recorder = chat();
        ChatResponse response = recorder.awaitCompletion();

        assertEquals(List.of("Grüße, ", "世界 ", "🌍🚀"), recorder.partials);
        assertEquals("{\"text\":\"héllo 🌍\"}", response.aiMessage().toolExecutionRequests().get(0).arguments());
        assertUsage(3, 4, response.tokenUsage());
    }

    @ParameterizedTest
    @CsvSource({
        "401, dev.langchain4j.exception.AuthenticationException",
        "429, dev.langchain4j.exception.RateLimitException",
        "500, dev.langchain4j.exception.InternalServerException"
    })
    void httpErrorsReachOnErrorWithStatus(int status, Class<?> expectedType) throws Exception {
        String body = "{\"error\":{\"message\":\"boom\",\"type\":\"invalid_request_error\",\"code\":null}}";
        stub.enqueue(StubResponse.error(status, body));

        Throwable error = chat().awaitError();

        // langchain4j maps the status to an exception type; the message is the raw response body.
        assertEquals(expectedType, error.getClass());
        assertEquals(body, error.getMessage());
        HttpException cause = assertInstanceOf(HttpException.class, error.getCause());
        assertEquals(status, cause.statusCode());
    }

    @Test
    void malformedChunkReachesOnErrorAndTheStreamCarriesOn() throws Exception {
        stub.enqueue(StubResponse.stream().text("a", "b").malformedAfter(2).build());

        Recorder recorder = chat();
        Throwable error = recorder.awaitError();

        assertEquals(RuntimeException.class, error.getClass());
        assertInstanceOf(JsonParseException.class, error.getCause());
        // langchain4j reports the bad frame but keeps parsing: the same call then completes as well.
        ChatResponse response = recorder.completion.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertEquals("ab", response.aiMessage().text());
        assertEquals(List.of("error", "complete"), recorder.terminalEvents);
    }

    @Test
    void droppedConnectionReachesOnError() throws Exception {
        // Without pacing, the JDK client may discard frames it has received but not yet handed to langchain4j
        // when it sees the truncated body; the delay lets "a" and "b" be consumed before the drop.
        stub.enqueue(StubResponse.stream()
                .text("a", "b", "c")
                .dropAfter(3)
                .delayBetweenChunks(Duration.ofMillis(50))
                .build());

        Recorder recorder = chat();
        Throwable error = recorder.awaitError();

        assertEquals(List.of("a", "b"), recorder.partials);
        assertClosedByPeer(error);
        assertEquals(0, stub.disconnectCount());
    }

    @Test
    void cancellingAStalledStreamIsSeenAsClientDisconnect() throws Exception {
        stub.enqueue(StubResponse.stream().text("first", "never sent").stallAfter(2).build());

        Recorder recorder = new Recorder();
        recorder.cancelOnFirstPartial = true;
        model.chat(chatRequest(), recorder);

        assertTrue(recorder.firstPartial.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertTrue(stub.awaitClientDisconnect(Duration.ofSeconds(1)));
        assertEquals(1, stub.disconnectCount());
        assertEquals(List.of("first"), recorder.partials);
    }

    @Test
    void cancellingDuringPacingIsSeenAsClientDisconnect() throws Exception {
        // "a" arrives after the first pause; the cancel then lands while the stub waits out the second one.
        stub.enqueue(StubResponse.stream().text("a", "b", "c").delayBetweenChunks(Duration.ofMillis(500)).build());

        Recorder recorder = new Recorder();
        recorder.cancelOnFirstPartial = true;
        model.chat(chatRequest(), recorder);

        assertTrue(stub.awaitClientDisconnect(Duration.ofSeconds(1)));
    }

    @Test
    void stallBeforeAnyContentGivesNoHandleUntilTheStubCloses() throws Exception {
        stub.enqueue(StubResponse.stream().text("never sent").stallAfter(1).build()); // only the role chunk

        Recorder recorder = chat();

        // Deliberately bounded wait for something that must not happen.
        assertThrows(TimeoutException.class, () -> recorder.terminal.get(500, TimeUnit.MILLISECONDS));
        assertEquals(List.of(), recorder.partials);
        stub.close();
        assertClosedByPeer(recorder.awaitError());
        assertEquals(0, stub.disconnectCount());
    }

    @Test
    void nonStreamingRequestGetsOneCompletion() {
        stub.enqueue(StubResponse.stream()
                .text("Hel", "lo")
                .toolCall("call_9", "save", "{\"x\":1}")
                .usage(5, 6)
                .build());

        ChatResponse response = blockingModel(WAIT).chat(chatRequest());

        assertFalse(stub.lastRequest().path("stream").asBoolean(false));
        assertEquals("Hello", response.aiMessage().text());
        ToolExecutionRequest call = response.aiMessage().toolExecutionRequests().get(0);
        assertEquals("call_9", call.id());
        assertEquals("save", call.name());
        assertEquals("{\"x\":1}", call.arguments());
        assertEquals(FinishReason.TOOL_EXECUTION, response.finishReason());
        assertUsage(5, 6, response.tokenUsage());
    }

    @Test
    void nonStreamingFaults() {
        OpenAiChatModel blocking = blockingModel(Duration.ofMillis(300));
        stub.enqueue(StubResponse.stream().text("x").stallAfter(0).build());
        stub.enqueue(StubResponse.stream().text("x").dropAfter(0).build());
        stub.enqueue(StubResponse.stream().text("x").malformedAfter(0).build());

        RuntimeException stalled = assertThrows(RuntimeException.class, () -> blocking.chat(chatRequest()));
        RuntimeException dropped = assertThrows(RuntimeException.class, () -> blocking.chat(chatRequest()));
        RuntimeException malformed = assertThrows(RuntimeException.class, () -> blocking.chat(chatRequest()));

        assertInstanceOf(dev.langchain4j.exception.TimeoutException.class, stalled);
        assertTrue(stub.awaitClientDisconnect(WAIT), "the timed-out client closes the stalled connection");
        assertEquals(RuntimeException.class, dropped.getClass());
        assertInstanceOf(IOException.class, dropped.getCause());
        assertEquals(RuntimeException.class, malformed.getClass());
        assertInstanceOf(JsonParseException.class, malformed.getCause());
    }

    @Test
    void queueIsFifoThenDefaultThenScripted500() throws Exception {
        stub.enqueue(StubResponse.stream().text("one").build());
        stub.enqueue(StubResponse.stream().text("two").build());
        stub.setDefault(StubResponse.stream().text("default").build());

        assertEquals("one", chat().awaitCompletion().aiMessage().text());
        assertEquals("two", chat().awaitCompletion().aiMessage().text());
        assertEquals("default", chat().awaitCompletion().aiMessage().text());
        assertEquals("default", chat().awaitCompletion().aiMessage().text());

        stub.reset();
        assertEquals(List.of(), stub.requests());
        HttpResponse<String> noScript = post("/v1/chat/completions", "{\"stream\":true}");
        assertEquals(500, noScript.statusCode());
        assertEquals("{\"error\":{\"message\":\"no scripted response\"}}", noScript.body());
    }

    @Test
    void unknownEndpointIs404AndNotRecorded() throws Exception {
        assertEquals(404, post("/v1/embeddings", "{}").statusCode());
        assertEquals(List.of(), stub.requests());
    }

    @Test
    void faultPositionsBeyondTheLastFrameAreRejected() {
        // role + 1 text + finish = 3 frames
        StubResponse.stream().text("x").stallAfter(3).build();
        assertThrows(IllegalArgumentException.class, () -> StubResponse.stream().text("x").stallAfter(4).build());
        assertThrows(IllegalArgumentException.class, () -> StubResponse.stream().dropAfter(-1).build());
    }

    /** What langchain4j reports when the connection ends inside a streamed body. */
    private static void assertClosedByPeer(Throwable error) {
        assertEquals(LangChain4jException.class, error.getClass());
        assertEquals("closed", error.getMessage());
        assertInstanceOf(IOException.class, error.getCause());
    }

    private static void assertUsage(int prompt, int completion, TokenUsage usage) {
        assertEquals(prompt, usage.inputTokenCount());
        assertEquals(completion, usage.outputTokenCount());
        assertEquals(prompt + completion, usage.totalTokenCount());
    }

    private OpenAiChatModel blockingModel(Duration timeout) {
        return OpenAiChatModel.builder()
                .baseUrl(stub.baseUrl())
                .apiKey("test-key")
                .modelName("gpt-test")
                .timeout(timeout)
                .maxRetries(0) // the default of 2 retries would consume further scripted responses
                .build();
    }

    private Recorder chat() {
        Recorder recorder = new Recorder();
        model.chat(chatRequest(), recorder);
        return recorder;
    }

    private static ChatRequest chatRequest() {
        return ChatRequest.builder().messages(UserMessage.from("hi")).build();
    }

    private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        URI uri = URI.create(stub.baseUrl().replace("/v1", "") + path);
        HttpRequest request = HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Collects the callbacks of one streaming call; they arrive on JDK HttpClient threads. */
    private static final class Recorder implements StreamingChatResponseHandler {

        final List<String> partials = new CopyOnWriteArrayList<>();
        final List<PartialToolCall> partialToolCalls = new CopyOnWriteArrayList<>();
        final List<CompleteToolCall> completeToolCalls = new CopyOnWriteArrayList<>();
        final CompletableFuture<ChatResponse> completion = new CompletableFuture<>();
        final CompletableFuture<Throwable> failure = new CompletableFuture<>();
        /** Whichever of completion or failure happens first. */
        final CompletableFuture<Object> terminal = CompletableFuture.anyOf(completion, failure);
        final CountDownLatch firstPartial = new CountDownLatch(1);
        final List<String> terminalEvents = new CopyOnWriteArrayList<>();
        volatile boolean cancelOnFirstPartial;

        @Override
        public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
            partials.add(partial.text());
            if (cancelOnFirstPartial && firstPartial.getCount() > 0) {
                context.streamingHandle().cancel();
            }
            firstPartial.countDown();
        }

        @Override
        public void onPartialToolCall(PartialToolCall partial, PartialToolCallContext context) {
            partialToolCalls.add(partial);
        }

        @Override
        public void onCompleteToolCall(CompleteToolCall complete) {
            completeToolCalls.add(complete);
        }

        @Override
        public void onCompleteResponse(ChatResponse response) {
            terminalEvents.add("complete");
            completion.complete(response);
        }

        @Override
        public void onError(Throwable error) {
            terminalEvents.add("error");
            failure.complete(error);
        }

        ChatResponse awaitCompletion() throws Exception {
            Object result = terminal.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            if (result instanceof Throwable error) {
                throw new AssertionError("expected completion, got error", error);
            }
            return (ChatResponse) result;
        }

        Throwable awaitError() throws Exception {
            Object result = terminal.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertInstanceOf(Throwable.class, result, "expected an error, got completion");
            return (Throwable) result;
        }
    }
}
