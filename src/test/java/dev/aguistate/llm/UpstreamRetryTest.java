package dev.aguistate.llm;

import static dev.aguistate.llm.StubbedModel.WAIT;
import static dev.aguistate.llm.StubbedModel.failureOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.testing.OpenAiStub;
import dev.aguistate.testing.StubResponse;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Transient failures before the first token are tried again; nothing is tried again once anything was streamed. */
@Execution(ExecutionMode.CONCURRENT)
class UpstreamRetryTest extends StubbedModelTest {

    private static final String BUSY = "{\"error\":{\"message\":\"busy\"}}";
    private static final StubResponse ANSWER = StubResponse.stream().text("Hello").build();

    static Stream<Arguments> transientFailures() {
        return Stream.of(
                Arguments.of(StubResponse.error(429, BUSY), "status_429"),
                Arguments.of(StubResponse.error(502, BUSY), "status_502"),
                Arguments.of(StubResponse.error(503, BUSY), "status_503"),
                Arguments.of(StubResponse.resetConnection(), "connection_closed"),
                Arguments.of(StubResponse.closeConnection(), "connection_closed"));
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("transientFailures")
    void aTransientFailureBeforeTheResponseIsTriedAgain(StubResponse failure, String reason) {
        StubbedModel upstream = start();
        upstream.stub.enqueue(failure);
        upstream.stub.enqueue(ANSWER);

        AssertSubscriber<ModelEvent> events = upstream.stream().awaitCompletion(WAIT);

        assertEquals(new ModelEvent.TextDelta("Hello"), events.getItems().get(0));
        assertEquals(2, upstream.stub.requests().size());
        assertEquals(1, upstream.retries(reason));
    }

    @Test
    void atMostMaxRetriesThenTheLastFailureStands() {
        StubbedModel upstream = start("max-retries", "2");
        upstream.stub.setDefault(StubResponse.error(503, BUSY));

        assertEquals(ModelFailure.Kind.UNAVAILABLE, failureOf(upstream.stream()));
        assertEquals(3, upstream.stub.requests().size());
        assertEquals(2, upstream.retries("status_503"));
    }

    @Test
    void otherErrorsAreNotTriedAgain() {
        StubbedModel upstream = start();
        upstream.stub.setDefault(StubResponse.error(500, BUSY));

        assertEquals(ModelFailure.Kind.UNAVAILABLE, failureOf(upstream.stream()));
        assertEquals(1, upstream.stub.requests().size());
    }

    @Test
    void aRefusedConnectionIsTriedAgainThenUnreachable() {
        StubbedModel upstream = start("base-url", OpenAiStub.closedPortBaseUrl());

        assertEquals(ModelFailure.Kind.UNREACHABLE, failureOf(upstream.stream()));
        assertEquals(2, upstream.retries("connection_refused"));
    }

    @Test
    void retryAfterInSecondsIsWaitedFor() {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.error(429, BUSY).withHeader("Retry-After", "1"));
        upstream.stub.enqueue(ANSWER);
        long start = System.nanoTime();

        upstream.stream().awaitCompletion(WAIT);

        assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() >= 1000, "tried again before Retry-After");
        assertEquals(1, upstream.retries("status_429"));
    }

    @Test
    void retryAfterAsAnHttpDateIsWaitedFor() {
        StubbedModel upstream = start();
        ZonedDateTime inTwoSeconds = ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(2);
        upstream.stub.enqueue(StubResponse.error(503, BUSY)
                .withHeader("Retry-After", DateTimeFormatter.RFC_1123_DATE_TIME.format(inTwoSeconds)));
        upstream.stub.enqueue(ANSWER);
        long start = System.nanoTime();

        upstream.stream().awaitCompletion(WAIT);

        // The date has whole seconds: "in two seconds" is at least one second away.
        assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() >= 1000, "tried again before Retry-After");
    }

    @Test
    void aRetryAfterBeyondTheLimitFailsAtOnce() {
        StubbedModel upstream = start("max-retry-wait", "10s");
        upstream.stub.enqueue(StubResponse.error(429, BUSY).withHeader("Retry-After", "3600"));
        upstream.stub.enqueue(ANSWER);

        assertEquals(ModelFailure.Kind.RATE_LIMITED, failureOf(upstream.stream()));
        assertEquals(1, upstream.stub.requests().size());
    }

    @Test
    void aKeepAliveConnectionClosedAsItIsReusedIsTriedAgainOnAFreshOne() {
        StubbedModel upstream = start();
        upstream.stub.setKeepAlive(true);
        upstream.stub.enqueue(ANSWER);
        upstream.stub.enqueue(StubResponse.closeConnection()); // the upstream's keep-alive ran out just now
        upstream.stub.enqueue(ANSWER);

        upstream.stream().awaitCompletion(WAIT);
        AssertSubscriber<ModelEvent> second = upstream.stream().awaitCompletion(WAIT);

        assertEquals(new ModelEvent.TextDelta("Hello"), second.getItems().get(0));
        assertEquals(List.of(1, 1, 2), upstream.stub.requestConnections(), "reused, closed, then a new connection");
        assertEquals(1, upstream.retries("connection_closed"));
    }

    @Test
    void nothingIsTriedAgainOnceAnythingWasStreamed() {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.stream().text("a", "b", "c").dropAfter(2)
                .delayBetweenChunks(Duration.ofMillis(50)).build());
        upstream.stub.enqueue(ANSWER);

        AssertSubscriber<ModelEvent> events = upstream.stream();

        assertEquals(ModelFailure.Kind.CONNECTION_LOST, failureOf(events));
        assertEquals(List.of(new ModelEvent.TextDelta("a")), events.getItems());
        assertEquals(1, upstream.stub.requests().size());
    }

    @Test
    void cancellingDuringTheWaitMeansNoFurtherAttempt() {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.error(429, BUSY).withHeader("Retry-After", "1"));
        upstream.stub.enqueue(ANSWER);

        AssertSubscriber<ModelEvent> events = upstream.stream();
        assertTrue(upstream.stub.awaitRequests(1, WAIT));
        events.cancel();

        // Deliberately bounded wait for something that must not happen: the retry after one second.
        assertFalse(upstream.stub.awaitRequests(2, Duration.ofMillis(1500)));
    }

    @Test
    void whileOneCallWaitsToRetryAnotherIsAnswered() {
        StubbedModel upstream = start();
        upstream.stub.enqueue(StubResponse.error(429, BUSY).withHeader("Retry-After", "2"));
        upstream.stub.enqueue(StubResponse.stream().text("second").build());
        upstream.stub.enqueue(StubResponse.stream().text("first").build());

        AssertSubscriber<ModelEvent> first = upstream.stream();
        assertTrue(upstream.stub.awaitRequests(1, WAIT));
        AssertSubscriber<ModelEvent> second = upstream.stream().awaitCompletion(WAIT);

        assertEquals(new ModelEvent.TextDelta("second"), second.getItems().get(0));
        assertEquals(2, upstream.stub.requests().size(), "the first call was still waiting when the second finished");
        first.awaitCompletion(WAIT);
        assertEquals(new ModelEvent.TextDelta("first"), first.getItems().get(0));
        assertInstanceOf(ModelEvent.Completed.class, first.getLastItem());
    }
}
