package dev.aguistate.webhooks;

import static dev.aguistate.store.SharedThreadStoreContract.awaitUntil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.protocol.TokenUsage;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.WebhookReceiver.Answer;
import dev.aguistate.testing.WebhookReceiver.Received;
import dev.aguistate.testing.WebhookReceiver;
import dev.aguistate.testing.WebhookSignatures;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One webhook's deliveries over real HTTP to a {@link WebhookReceiver}, on a real Vert.x: signed as documented, sent
 * again after what may pass (5xx, 408, 429, a timeout, no connection) and not after a refusal, bounded in attempts
 * and in what it holds.
 */
@Execution(ExecutionMode.CONCURRENT)
class WebhookDeliveryTest {

    private static final String SECRET = "whsec_" + java.util.Base64.getEncoder().encodeToString(
            "a test secret of 32 bytes, random".substring(0, 32).getBytes());

    private static Vertx vertx;
    private static HttpClient http;
    private static WebhookReceiver receiver;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        http = vertx.createHttpClient();
        receiver = WebhookReceiver.start();
    }

    @AfterAll
    static void stop() {
        receiver.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private Webhook.Builder webhook(String url) {
        return Webhook.builder("hook", url, SECRET).backoff(Duration.ofMillis(20)).timeout(Duration.ofSeconds(5));
    }

    private WebhookDelivery delivery(Webhook webhook) {
        return new WebhookDelivery(webhook, vertx, http, registry);
    }

    private static RunEnded finished(String runId) {
        Instant started = Instant.parse("2026-11-27T12:00:00Z");
        return RunEnded.of("thread-1", runId, "chat", "alice", "acme",
                new AgUiEvent.RunFinished("thread-1", runId, null, RunOutcome.SUCCESS,
                        List.of(new TokenUsage("openai", "gpt-test", 12, 5, 17, null, null))),
                started, started.plusMillis(1500));
    }

    private static WebhookDelivery.Message message(RunEnded run) {
        return new WebhookDelivery.Message("msg_" + UUID.randomUUID().toString().replace("-", ""), run.body(),
                run.threadId(), run.runId());
    }

    private static String runId() {
        return "run-" + UUID.randomUUID();
    }

    private double count(String result) {
        return registry.get("agui.webhooks.deliveries").tag("result", result).counter().count();
    }

    @Test
    void aRunsOutcomeIsPostedSignedAsStandardWebhooksSignsWithTheRunInTheBody() {
        String runId = runId();
        delivery(webhook(receiver.url() + "/hook").build()).offer(message(finished(runId)));

        Received request = receiver.await("/hook", runId, 1).get(0);

        assertTrue(WebhookSignatures.verify(SECRET, request), request.headers().toString());
        assertTrue(request.header("webhook-id").matches("msg_[0-9a-f]{32}"), request.header("webhook-id"));
        assertEquals("application/json", request.header("content-type"));
        assertEquals(RunRequests.parse("""
                {"type":"run.finished","timestamp":"2026-11-27T12:00:01.500Z","data":{"threadId":"thread-1",
                 "runId":"%s","agent":"chat","user":"alice","tenant":"acme","outcome":"finished",
                 "usage":[{"provider":"openai","model":"gpt-test","inputTokens":12,"outputTokens":5,"totalTokens":17}],
                 "startedAt":"2026-11-27T12:00:00Z","durationMs":1500}}""".formatted(runId)), request.json());
        String otherSecret = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
        assertTrue(!WebhookSignatures.verify(otherSecret, request), "another secret does not verify it");
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 503, 408, 429})
    void anAnswerThatMayPassIsTriedAgainWithTheSameIdAndBodyUntilDelivered(int status) {
        String runId = runId();
        receiver.answer(runId, Answer.status(status), Answer.status(status));
        delivery(webhook(receiver.url() + "/retried").build()).offer(message(finished(runId)));

        List<Received> attempts = receiver.await("/retried", runId, 3);

        assertEquals(1, attempts.stream().map(attempt -> attempt.header("webhook-id")).distinct().count());
        assertEquals(1, attempts.stream().map(Received::text).distinct().count());
        attempts.forEach(attempt -> assertTrue(WebhookSignatures.verify(SECRET, attempt), "each attempt is signed"));
        awaitUntil(() -> count("delivered") == 1, "the third attempt delivered it");
        assertEquals(0, count("failed"));
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 404, 410, 301})
    void aRefusalIsNotTriedAgain(int status) {
        String runId = runId();
        receiver.answer(runId, Answer.status(status));
        delivery(webhook(receiver.url() + "/refusing").build()).offer(message(finished(runId)));

        awaitUntil(() -> count("rejected") == 1, "given up at the refusal");

        assertEquals(1, receiver.of("/refusing", runId).size());
    }

    @Test
    void anEndpointThatGoesOnFailingIsTriedMaxAttemptsTimesThenGivenUp() {
        String runId = runId();
        receiver.answer(runId, Answer.status(502), Answer.status(502), Answer.status(502), Answer.status(502));
        delivery(webhook(receiver.url() + "/down").maxAttempts(3).build()).offer(message(finished(runId)));

        awaitUntil(() -> count("failed") == 1, "given up after three attempts");

        assertEquals(3, receiver.of("/down", runId).size());
        assertEquals(0, registry.get("agui.webhooks.pending").gauge().value());
    }

    @Test
    void anEndpointThatDoesNotAnswerInTimeIsTriedAgain() {
        String runId = runId();
        CountDownLatch release = new CountDownLatch(1);
        receiver.answer(runId, Answer.held(release));
        delivery(webhook(receiver.url() + "/slow").timeout(Duration.ofMillis(300)).build())
                .offer(message(finished(runId)));

        List<Received> attempts = receiver.await("/slow", runId, 2);
        release.countDown();

        assertEquals(attempts.get(0).header("webhook-id"), attempts.get(1).header("webhook-id"));
        awaitUntil(() -> count("delivered") == 1, "the second attempt delivered it");
    }

    @Test
    void anEndpointNobodyListensOnIsTriedAgainThenGivenUp() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        delivery(webhook("http://127.0.0.1:" + closedPort + "/gone").maxAttempts(2).build())
                .offer(message(finished(runId())));

        awaitUntil(() -> count("failed") == 1, "given up after two attempts");
    }

    @Test
    void pastItsQueueSizeAnOutcomeIsDroppedAndCounted() {
        String held = runId();
        String dropped = runId();
        CountDownLatch release = new CountDownLatch(1);
        receiver.answer(held, Answer.held(release));
        WebhookDelivery delivery = delivery(webhook(receiver.url() + "/full").queueSize(1).build());
        delivery.offer(message(finished(held)));
        receiver.await("/full", held, 1);

        delivery.offer(message(finished(dropped)));

        assertEquals(1, count("dropped"));
        assertEquals(1, registry.get("agui.webhooks.pending").gauge().value());
        release.countDown();
        awaitUntil(() -> count("delivered") == 1, "the held one delivered");
        String next = runId();
        delivery.offer(message(finished(next)));
        receiver.await("/full", next, 1);
        assertEquals(List.of(), receiver.of("/full", dropped), "the dropped one was never sent");
    }

    @Test
    void waitsDoubleFromTheBackoffWithinAQuarterEitherWayAndAtMostAMinute() {
        Webhook webhook = webhook(receiver.url()).backoff(Duration.ofSeconds(1)).build();
        assertEquals(Duration.ofMillis(750), webhook.waitBefore(2, 0));
        assertEquals(Duration.ofMillis(1250), webhook.waitBefore(2, 1));
        assertEquals(Duration.ofSeconds(4), webhook.waitBefore(4, 0.5));
        assertEquals(Duration.ofSeconds(60), webhook.waitBefore(30, 0.5));
        assertNotEquals(webhook.waitBefore(3, 0), webhook.waitBefore(3, 1));
    }

    @Test
    void aSecretThatIsNotAStandardWebhooksSecretIsRefusedWithoutShowingIt() {
        IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> Webhook.builder("hook", receiver.url(), "hunter2").build());
        assertTrue(refused.getMessage().contains("whsec_"), refused.getMessage());
        assertTrue(!refused.getMessage().contains("hunter2"), refused.getMessage());
        assertTrue(!webhook(receiver.url()).build().toString().contains(SECRET.substring(6)));
    }

    @Test
    void howARunEndedIsTheWebhooksEvent() {
        assertEquals(WebhookEvent.FINISHED, WebhookEvent.of(new AgUiEvent.RunFinished("t", "r", null,
                RunOutcome.SUCCESS, null)));
        assertEquals(WebhookEvent.INTERRUPTED, WebhookEvent.of(new AgUiEvent.RunFinished("t", "r", null,
                new RunOutcome.Success(List.of("call_1")), null)));
        assertEquals(WebhookEvent.INTERRUPTED, WebhookEvent.of(new AgUiEvent.RunFinished("t", "r", null,
                new RunOutcome.Interrupted(List.of()), null)));
        assertEquals(WebhookEvent.CANCELLED, WebhookEvent.of(new AgUiEvent.RunFinished("t", "r", null,
                RunOutcome.CANCELLED, null)));
        assertEquals(WebhookEvent.FAILED, WebhookEvent.of(new AgUiEvent.RunError("It broke.", "upstream_error")));
        JsonNode failed = RunRequests.parse(new String(RunEnded.of("t", "r", "chat", "bob", null,
                new AgUiEvent.RunError("It broke.", "upstream_error"), Instant.EPOCH, Instant.EPOCH).body()));
        assertEquals(RunRequests.parse("{\"code\":\"upstream_error\",\"message\":\"It broke.\"}"),
                failed.at("/data/error"));
        assertTrue(failed.at("/data/tenant").isMissingNode() && failed.at("/data/usage").isMissingNode());
    }
}
