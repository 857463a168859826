package dev.aguistate.llm;

import static dev.aguistate.llm.StubbedModel.WAIT;
import static dev.aguistate.llm.StubbedModel.failureOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.testing.StubResponse;
import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The OpenAI-compatible adapter against the stub: what each upstream behaviour becomes, and how the stream flows. */
@Execution(ExecutionMode.CONCURRENT)
class OpenAiCompatibleModelTest extends StubbedModelTest {

    static Stream<Arguments> failuresThatLookLikeSuccess() {
        return Stream.of(
                Arguments.of("inline error object, no status",
                        StubResponse.stream().text("a", "b").errorAfter(2,
                                "{\"error\":{\"message\":\"Provider disconnected\",\"code\":\"server_error\"}}").build(),
                        ModelFailure.Kind.UNAVAILABLE),
                Arguments.of("inline error object with a status as its code (vLLM)",
                        StubResponse.stream().text("a").errorAfter(1,
                                "{\"error\":{\"object\":\"error\",\"message\":\"context too long\",\"code\":400}}").build(),
                        ModelFailure.Kind.REQUEST_REJECTED),
                Arguments.of("event: error",
                        StubResponse.stream().text("a").errorEventAfter(2, "Internal error in the model runner").build(),
                        ModelFailure.Kind.UNAVAILABLE),
                Arguments.of("event: error with a status",
                        StubResponse.stream().text("a").errorEventAfter(2, "{\"error\":{\"code\":429}}").build(),
                        ModelFailure.Kind.RATE_LIMITED),
                Arguments.of("200 with an HTML page",
                        StubResponse.body(200, "text/html", "<!DOCTYPE html><html><body>Gateway</body></html>\n"),
                        ModelFailure.Kind.BAD_RESPONSE),
                Arguments.of("200 with a JSON error",
                        StubResponse.body(200, "application/json", "{\"error\":{\"message\":\"overloaded\"}}"),
                        ModelFailure.Kind.BAD_RESPONSE),
                Arguments.of("200 with an HTML page and no content type",
                        StubResponse.body(200, null, "<html>\n<body>Gateway</body>\n</html>\n"),
                        ModelFailure.Kind.BAD_RESPONSE),
                Arguments.of("200 event stream with an empty body",
                        StubResponse.body(200, "text/event-stream", ""), ModelFailure.Kind.BAD_RESPONSE),
                Arguments.of("stream ends cleanly without finish_reason or [DONE]",
                        StubResponse.stream().text("a", "b", "c").endAfter(3).build(),
                        ModelFailure.Kind.CONNECTION_LOST),
                Arguments.of("finish_reason length inside a tool call",
                        StubResponse.stream().toolCall("call_1", "save", "{\"title\":\"An unfinished").finishReason("length")
                                .argumentChunks(5).build(),
                        ModelFailure.Kind.OUTPUT_TRUNCATED),
                Arguments.of("finish_reason content_filter",
                        StubResponse.stream().text("Here is how").finishReason("content_filter").build(),
                        ModelFailure.Kind.CONTENT_FILTERED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failuresThatLookLikeSuccess")
    void anUpstreamFailureInsideA200IsAFailureNeverACompletion(String name, StubResponse response,
                                                              ModelFailure.Kind expected) {
        StubbedModel upstream = start();
        upstream.stub.enqueue(response);

        AssertSubscriber<ModelEvent> events = upstream.stream();

        assertEquals(expected, failureOf(events));
        assertTrue(events.getItems().stream().noneMatch(e -> e instanceof ModelEvent.Completed), events.getItems().toString());
        assertEquals(1, upstream.stub.requests().size(), "a failure after the response started is not retried");
    }

    @Test
    void aToolCallCutByTheTokenLimitNeverCompletes() {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.stream()
                .toolCall("call_1", "get_time", "{}")
                .toolCall("call_2", "save", "{\"title\":\"An unfin")
                .finishReason("length").build());

        AssertSubscriber<ModelEvent> events = upstream.stream();

        assertEquals(ModelFailure.Kind.OUTPUT_TRUNCATED, failureOf(events));
        List<String> completed = events.getItems().stream()
                .filter(e -> e instanceof ModelEvent.ToolCallCompleted)
                .map(e -> ((ModelEvent.ToolCallCompleted) e).id()).toList();
        assertEquals(List.of("call_1"), completed, "the call that was whole completes, the cut one does not");
    }

    @Test
    void aTextCutByTheTokenLimitKeepsItsTextAndSaysSo() {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.stream().text("Once upon", " a time").finishReason("length").usage(5, 2).build());

        AssertSubscriber<ModelEvent> events = upstream.stream().awaitCompletion(WAIT);

        assertEquals(List.of(new ModelEvent.TextDelta("Once upon"), new ModelEvent.TextDelta(" a time"),
                new ModelEvent.Completed(new ModelUsage("gpt-test", 5, 2, 7), FinishReason.LENGTH)), events.getItems());
    }

    @Test
    void finishReasonsReachTheCompletion() {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.stream().text("Hi").build());
        upstream.stub.enqueue(StubResponse.stream().toolCall("call_1", "get_time", "{}").build());
        upstream.stub.enqueue(StubResponse.stream().text("Hi").finishReason("eos").build());

        assertEquals(FinishReason.STOP, completion(upstream.stream()).finishReason());
        assertEquals(FinishReason.TOOL_CALLS, completion(upstream.stream()).finishReason());
        assertEquals(FinishReason.OTHER, completion(upstream.stream()).finishReason());
    }

    @Test
    void aFinishReasonWithoutDoneStillCompletes() {
        StubbedModel upstream = start();
        // role, text, finish: all data frames, then the body ends without [DONE]
        upstream.stub.enqueue(StubResponse.stream().text("Hi").endAfter(3).build());

        assertEquals(FinishReason.STOP, completion(upstream.stream()).finishReason());
    }

    @Test
    void aRefusalIsRelayedAsTheAssistantsText() {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.stream().refusal("I can't help", " with that.").build());

        AssertSubscriber<ModelEvent> events = upstream.stream().awaitCompletion(WAIT);

        assertEquals(List.of(new ModelEvent.TextDelta("I can't help"), new ModelEvent.TextDelta(" with that.")),
                events.getItems().subList(0, 2));
        assertInstanceOf(ModelEvent.Completed.class, events.getLastItem());
    }

    @Test
    void reasoningUnderEitherFieldNameIsReasoning() {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.stream().reasoning("Let me", " think.").text("42").build());
        upstream.stub.enqueue(StubResponse.stream().reasoningContent("Hmm", ".").text("43").build());

        assertEquals(List.of(new ModelEvent.ReasoningDelta("Let me"), new ModelEvent.ReasoningDelta(" think."),
                new ModelEvent.TextDelta("42")), upstream.stream().awaitCompletion(WAIT).getItems().subList(0, 3));
        assertEquals(List.of(new ModelEvent.ReasoningDelta("Hmm"), new ModelEvent.ReasoningDelta("."),
                new ModelEvent.TextDelta("43")), upstream.stream().awaitCompletion(WAIT).getItems().subList(0, 3));
    }

    @ParameterizedTest(name = "split with seed {0}")
    @ValueSource(longs = {11, 1, 2, 3, 4})
    void commentsAndFramesSplitAnywhereStillMakeTheSameAnswer(long seed) {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.stream()
                .text("Grüße, ", "\"quoted\" \\ ", "世界 ", "🌍🚀\n", "\u2028\t")
                .toolCall("call_1", "echo", "{\"text\":\"héllo 🌍 \\\"x\\\"\"}").randomArgumentSplits(seed)
                .toolCall("call_2", "get_time", "{}")
                .usage(3, 4)
                .commentBeforeEachFrame("OPENROUTER PROCESSING")
                .splitFramesAtBytes(seed)
                .build());

        List<ModelEvent> events = upstream.stream().awaitCompletion(WAIT).getItems();

        assertEquals("Grüße, \"quoted\" \\ 世界 🌍🚀\n\u2028\t", events.stream()
                .filter(e -> e instanceof ModelEvent.TextDelta)
                .map(e -> ((ModelEvent.TextDelta) e).text()).collect(Collectors.joining()));
        assertEquals(List.of(new ModelEvent.ToolCallCompleted(0, "call_1", "echo", "{\"text\":\"héllo 🌍 \\\"x\\\"\"}"),
                new ModelEvent.ToolCallCompleted(1, "call_2", "get_time", "{}")), events.stream()
                .filter(e -> e instanceof ModelEvent.ToolCallCompleted).toList());
        assertEquals(new ModelEvent.Completed(new ModelUsage("gpt-test", 3, 4, 7), FinishReason.TOOL_CALLS),
                events.get(events.size() - 1));
    }

    @Test
    void toolCallsWithoutAnIndexAreToldApartByTheirIds() {
        StubbedModel upstream = start();
        // Some OpenAI-compatible servers leave out tool_calls[].index; a new id starts the next call.
        upstream.stub.enqueue(StubResponse.body(200, "text/event-stream", """
                data: {"choices":[{"delta":{"tool_calls":[{"id":"call_a","function":{"name":"f","arguments":"{\\"x\\":"}}]}}]}

                data: {"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"1}"}}]}}]}

                data: {"choices":[{"delta":{"tool_calls":[{"id":"call_b","function":{"name":"g","arguments":"{}"}}]}}]}

                data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}],"model":"m"}

                data: [DONE]

                """));

        assertEquals(List.of(new ModelEvent.ToolCallDelta(0, "call_a", "f", "{\"x\":"),
                new ModelEvent.ToolCallDelta(0, "call_a", "f", "1}"),
                new ModelEvent.ToolCallCompleted(0, "call_a", "f", "{\"x\":1}"),
                new ModelEvent.ToolCallDelta(1, "call_b", "g", "{}"),
                new ModelEvent.ToolCallCompleted(1, "call_b", "g", "{}"),
                new ModelEvent.Completed(null, FinishReason.TOOL_CALLS)), upstream.stream().awaitCompletion(WAIT).getItems());
    }

    @Test
    void cachedAndReasoningTokenDetailsAreReadWhenTheUpstreamReportsThem() {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.stream().text("ok").usage(120, 40, 100, 25).build());

        List<ModelEvent> events = upstream.stream().awaitCompletion(WAIT).getItems();

        assertEquals(new ModelEvent.Completed(new ModelUsage("gpt-test", 120, 40, 160, 100, 25), FinishReason.STOP),
                events.get(events.size() - 1));
    }

    @Test
    void aSilentUpstreamEndsWithIdleTimeoutAndIsDisconnected() {
        StubbedModel upstream = start("idle-timeout", "300ms");
        upstream.stub.enqueue(StubResponse.stream().text("thinking", "never sent").stallAfter(2).build());

        AssertSubscriber<ModelEvent> events = upstream.stream();

        assertEquals(ModelFailure.Kind.IDLE_TIMEOUT, failureOf(events));
        assertEquals(List.of(new ModelEvent.TextDelta("thinking")), events.getItems());
        assertTrue(upstream.stub.awaitClientDisconnect(Duration.ofSeconds(1)));
    }

    @Test
    void aConsumerThatStopsAskingIsNotAnIdleUpstream() {
        StubbedModel upstream = start("idle-timeout", "300ms");
        upstream.stub.enqueue(StubResponse.stream().text("a", "b", "c", "d", "e")
                .delayBetweenChunks(Duration.ofMillis(200)).build());

        AssertSubscriber<ModelEvent> events = upstream.stream(1).awaitItems(1, WAIT);
        // The consumer asks for nothing more while the upstream writes the rest (well over the idle timeout).
        assertTrue(upstream.stub.awaitCompletedStreams(1, WAIT));
        events.request(Long.MAX_VALUE).awaitCompletion(WAIT);

        assertEquals("abcde", events.getItems().stream().filter(e -> e instanceof ModelEvent.TextDelta)
                .map(e -> ((ModelEvent.TextDelta) e).text()).collect(Collectors.joining()));
    }

    @Test
    void aConsumerThatStopsAskingPausesTheUpstream() {
        StubbedModel upstream = start();
        // 16 MB: more than the socket buffers on both ends of a loopback connection hold
        List<String> deltas = new ArrayList<>();
        for (int i = 0; i < 2048; i++) {
            deltas.add(String.format("%08d", i) + "x".repeat(8184));
        }
        upstream.stub.enqueue(StubResponse.stream().text(deltas.toArray(String[]::new)).build());

        AssertSubscriber<ModelEvent> events = upstream.stream(1).awaitItems(1, WAIT);

        // Deliberately bounded wait for something that must not happen: we stopped reading, so the stub cannot finish.
        assertFalse(upstream.stub.awaitCompletedStreams(1, Duration.ofSeconds(3)), "the upstream was not paused");
        events.request(Long.MAX_VALUE).awaitCompletion(Duration.ofSeconds(60));
        assertEquals(deltas, events.getItems().stream().filter(e -> e instanceof ModelEvent.TextDelta)
                .map(e -> ((ModelEvent.TextDelta) e).text()).toList());
    }

    @Test
    void cancellingClosesTheUpstreamConnectionBeforeAndAfterTheFirstToken() {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.stream().text("late").stallAfter(1).build()); // only the role chunk
        AssertSubscriber<ModelEvent> beforeFirstToken = upstream.stream();
        assertTrue(upstream.stub.awaitRequests(1, WAIT));
        beforeFirstToken.cancel();
        assertTrue(upstream.stub.awaitClientDisconnect(Duration.ofSeconds(1)));

        upstream.stub.reset();
        upstream.stub.enqueue(StubResponse.stream().text("one", "two").stallAfter(2).build());
        upstream.stream().awaitItems(1, WAIT).cancel();
        assertTrue(upstream.stub.awaitClientDisconnect(Duration.ofSeconds(1)));
    }

    @Test
    void concurrentStreamsHoldNoThreadEach() {
        StubbedModel upstream = start();
        int streams = 200;
        upstream.stub.setDefault(StubResponse.stream().text("first", "never sent").stallAfter(2).build());
        Set<String> before = threadNames();

        List<AssertSubscriber<ModelEvent>> open = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            open.add(upstream.stream());
        }
        open.forEach(s -> s.awaitItems(1, WAIT));
        Set<String> during = threadNames();

        during.removeAll(before);
        during.removeIf(name -> name.startsWith("openai-stub"));
        // A thread per stream would be 200; the bound leaves room for a test server that boots beside this class
        // meanwhile (the plain classes run beside the @QuarkusTest ones: docs/testing.md).
        assertTrue(during.size() < streams / 4, streams + " open streams started these threads: " + during);
        open.forEach(AssertSubscriber::cancel);
    }

    @Test
    void aBaseUrlThatIsNoUrlFailsTheCallInsteadOfHangingIt() {
        StubbedModel upstream = start("base-url", "http://[::1/v1");

        assertEquals(ModelFailure.Kind.UNREACHABLE, failureOf(upstream.stream()));
    }

    /**
     * langchain4j sends a request from within {@code chat}, on the caller's thread, today; a call must not rely on
     * that. Here every request is held and sent later from a thread of its own, the second call's first: each
     * call still gets its own answer, and the key that pairs them never reaches the upstream.
     */
    @Test
    void eachRequestReachesItsOwnCallWhicheverThreadSendsItAndInWhicheverOrder() throws InterruptedException {
        HeldSends held = new HeldSends();
        StubbedModel upstream = start(held::around);
        upstream.stub.answerWhen(request -> request.toString().contains("first question"),
                StubResponse.stream().text("first answer").build());
        upstream.stub.answerWhen(request -> request.toString().contains("second question"),
                StubResponse.stream().text("second answer").build());

        AssertSubscriber<ModelEvent> first = ask(upstream, "first question");
        AssertSubscriber<ModelEvent> second = ask(upstream, "second question");
        held.sendLastFirstFromAnotherThread();

        assertEquals(new ModelEvent.TextDelta("first answer"), first.awaitCompletion(WAIT).getItems().get(0));
        assertEquals(new ModelEvent.TextDelta("second answer"), second.awaitCompletion(WAIT).getItems().get(0));
        assertEquals(2, upstream.stub.requests().size());
        assertTrue(upstream.stub.requests().stream().noneMatch(request -> request.has(PendingCalls.FIELD)),
                upstream.stub.requests().toString());
    }

    /** The key is cut out of the body's UTF-8, where text before it may take several bytes a character. */
    @Test
    void aRequestWithTextOutsideAsciiReachesTheUpstreamWholeAndWithoutItsKey() {
        StubbedModel upstream = start();
        upstream.stub.answerWhen(request -> true, StubResponse.stream().text("ok").build());
        String question = "Grüße, 世界 🌍 \"quoted\" \u2028";

        ask(upstream, question).awaitCompletion(WAIT);

        JsonNode sent = upstream.stub.requests().get(0);
        assertEquals(question, sent.path("messages").path(0).path("content").asText(), sent.toString());
        assertFalse(sent.has(PendingCalls.FIELD), sent.toString());
    }

    private static AssertSubscriber<ModelEvent> ask(StubbedModel upstream, String question) {
        return upstream.model.stream(ChatRequest.builder().messages(UserMessage.from(question)).build())
                .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
    }

    /** A transport that holds langchain4j's requests and sends them when told, from a thread of its own, last first. */
    private static final class HeldSends implements HttpClient {

        private final List<Runnable> held = Collections.synchronizedList(new ArrayList<>());
        private HttpClient client;

        HttpClient around(HttpClient modelsClient) {
            client = modelsClient;
            return this;
        }

        @Override
        public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
            held.add(() -> client.execute(request, parser, listener));
        }

        @Override
        public SuccessfulHttpResponse execute(HttpRequest request) {
            return client.execute(request);
        }

        void sendLastFirstFromAnotherThread() throws InterruptedException {
            List<Runnable> sends = new ArrayList<>(held);
            Collections.reverse(sends);
            Thread sender = new Thread(() -> sends.forEach(Runnable::run), "another-sender");
            sender.start();
            sender.join();
        }
    }

    private static ModelEvent.Completed completion(AssertSubscriber<ModelEvent> events) {
        return assertInstanceOf(ModelEvent.Completed.class, events.awaitCompletion(WAIT).getLastItem());
    }

    private static Set<String> threadNames() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).collect(Collectors.toSet());
    }
}
