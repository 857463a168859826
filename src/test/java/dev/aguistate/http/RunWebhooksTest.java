package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.AgentsFileProfile;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.testing.WebhookReceiver;
import dev.aguistate.testing.WebhookReceiver.Answer;
import dev.aguistate.testing.WebhookReceiver.Received;
import dev.aguistate.testing.WebhookReceiverResource;
import dev.aguistate.testing.WebhookSignatures;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Runs of the server tell their outcomes to the run webhooks over real HTTP: the server's ({@code all} for every
 * outcome, {@code failures} for failed runs) unless the agent declares its own ({@code hooked}, in the agents file).
 */
@QuarkusTest
@TestProfile(AgentsFileProfile.class)
class RunWebhooksTest extends StubbedLlmTestBase {

    private static final String AGENT = "/agui/itinerary";
    private WebhookReceiver receiver;

    @BeforeEach
    void receiver() {
        receiver = WebhookReceiverResource.receiver();
    }

    private SseClient.Stream run(String path, RunRequests request, StubResponse... answers) {
        for (StubResponse answer : answers) {
            stub.enqueue(answer);
        }
        return client.run(path, request.json(), AgentsFileProfile.AUTHORIZATION);
    }

    private Received the(String path, RunRequests request, String secret) {
        Received webhook = receiver.await(path, request.runId(), 1).get(0);
        assertTrue(WebhookSignatures.verify(secret, webhook), "signed with the webhook's secret: " + webhook);
        return webhook;
    }

    @Test
    void aFinishedRunIsPostedSignedToTheServersWebhookWithTheRunItsUsageAndDuration() {
        RunRequests request = RunRequests.fresh().user("hello");
        Instant before = Instant.now();
        SseClient.Stream stream = run(AGENT, request, StubResponse.stream().text("Hi.").usage(10, 3).build());
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());

        Received webhook = the("/all", request, WebhookReceiverResource.ALL_SECRET);

        assertFalse(WebhookSignatures.verify(WebhookReceiverResource.FAILURES_SECRET, webhook));
        JsonNode body = webhook.json();
        assertEquals("run.finished", body.get("type").asText());
        JsonNode data = body.get("data");
        assertEquals(request.threadId(), data.get("threadId").asText());
        assertEquals(request.runId(), data.get("runId").asText());
        assertEquals("itinerary", data.get("agent").asText());
        assertEquals("alice", data.get("user").asText());
        assertTrue(data.path("tenant").isMissingNode(), "no tenant for an anonymous caller");
        assertEquals("finished", data.get("outcome").asText());
        assertEquals(stream.last().get("usage"), data.get("usage"), "the usage RUN_FINISHED reported");
        assertEquals(13, data.at("/usage/0/totalTokens").asInt());
        Instant started = Instant.parse(data.get("startedAt").asText());
        Instant ended = Instant.parse(body.get("timestamp").asText());
        assertFalse(started.isBefore(before.minusSeconds(1)) || ended.isAfter(Instant.now()), body.toString());
        assertEquals(java.time.Duration.between(started, ended).toMillis(), data.get("durationMs").asLong());
    }

    @Test
    void aFailedRunGoesToEveryWebhookThatWantsFailuresWithItsCodeAndOnlyFailuresGoToFailures() {
        RunRequests finished = RunRequests.fresh().user("hello");
        run(AGENT, finished, StubResponse.stream().text("Hi.").build());
        RunRequests failed = RunRequests.fresh().user("hello");
        SseClient.Stream stream = run(AGENT, failed, StubResponse.error(401,
                "{\"error\":{\"message\":\"Incorrect API key\",\"code\":\"invalid_api_key\"}}"));
        assertEquals("RUN_ERROR", stream.last().get("type").asText());

        for (Received webhook : List.of(the("/failures", failed, WebhookReceiverResource.FAILURES_SECRET),
                the("/all", failed, WebhookReceiverResource.ALL_SECRET))) {
            assertEquals("run.failed", webhook.json().get("type").asText());
            assertEquals("failed", webhook.json().at("/data/outcome").asText());
            assertEquals(stream.last().get("code").asText(), webhook.json().at("/data/error/code").asText());
            assertEquals(stream.last().get("message").asText(), webhook.json().at("/data/error/message").asText());
        }
        the("/all", finished, WebhookReceiverResource.ALL_SECRET);
        // the finished run's outcome was handed over before the failed run began, so it would have come first
        assertEquals(List.of(), receiver.of("/failures", finished.runId()), "failures wants failed runs only");
    }

    @Test
    void aWebhookThatAnswers500IsTriedAgainWithTheSameIdAndBody() {
        RunRequests request = RunRequests.fresh().user("hello");
        receiver.answer(request.runId(), Answer.status(500));
        run(AGENT, request, StubResponse.stream().text("Hi.").build());

        List<Received> attempts = receiver.await("/all", request.runId(), 2);

        assertEquals(attempts.get(0).header("webhook-id"), attempts.get(1).header("webhook-id"));
        assertEquals(attempts.get(0).text(), attempts.get(1).text());
        attempts.forEach(attempt -> assertTrue(WebhookSignatures.verify(WebhookReceiverResource.ALL_SECRET, attempt)));
    }

    @Test
    void aStoppedRunIsPostedCancelled() {
        RunRequests request = RunRequests.fresh().user("tell a story");
        stub.enqueue(StubResponse.stream().text("Once", " upon", " a time").stallAfter(2).build());
        try (SseClient.LiveStream owner = client.open(AGENT, request.json(), AgentsFileProfile.AUTHORIZATION)) {
            owner.await("TEXT_MESSAGE_CONTENT");
            assertEquals(200, client.post(AGENT + "/stop/" + request.threadId(), new byte[0], AgentsFileProfile.AUTHORIZATION).statusCode());
            owner.readToEnd();
        }

        Received webhook = the("/all", request, WebhookReceiverResource.ALL_SECRET);

        assertEquals("run.cancelled", webhook.json().get("type").asText());
        assertEquals("cancelled", webhook.json().at("/data/outcome").asText());
    }

    @Test
    void anAgentsOwnWebhooksReplaceTheServersAndARunWaitingForAFrontendToolIsInterrupted() {
        RunRequests request = RunRequests.fresh().user("book it")
                .tool("confirm_booking", "Ask the user to confirm", "{\"type\":\"object\"}");
        SseClient.Stream stream = run("/agui/hooked", request,
                StubResponse.stream().toolCall("call_fe", "confirm_booking", "{}").build());
        assertEquals("call_fe", stream.last().at("/outcome/pendingToolCallIds/0").asText());

        Received webhook = the("/own", request, WebhookReceiverResource.AGENTS_SECRET);

        assertEquals("run.interrupted", webhook.json().get("type").asText());
        assertEquals("hooked", webhook.json().at("/data/agent").asText());
        RunRequests later = RunRequests.fresh().user("hello");
        run(AGENT, later, StubResponse.stream().text("Hi.").build());
        the("/all", later, WebhookReceiverResource.ALL_SECRET);
        // handed over before the later run began, the hooked run's outcome would have reached /all first
        assertEquals(List.of(), receiver.of("/all", request.runId()), "the agent's own webhooks replace the server's");
    }

    @Test
    void anAgentsWebhookGetsOnlyTheOutcomesItsEventsName() {
        RunRequests failed = RunRequests.fresh().user("hello");
        run("/agui/hooked", failed, StubResponse.error(401, "{\"error\":{\"message\":\"no\"}}"));
        RunRequests finished = RunRequests.fresh().user("hello");
        run("/agui/hooked", finished, StubResponse.stream().text("Hi.").build());

        the("/own", finished, WebhookReceiverResource.AGENTS_SECRET);

        assertEquals(List.of(), receiver.of("/own", failed.runId()), "its events are finished and interrupted");
    }

    @Test
    void aWebhookThatDoesNotAnswerDelaysNeitherTheRunNorTheNextRunOnItsThread() {
        RunRequests first = RunRequests.fresh().user("hello");
        CountDownLatch release = new CountDownLatch(1);
        receiver.answer(first.runId(), Answer.held(release));
        try {
            assertEquals("RUN_FINISHED", run(AGENT, first, StubResponse.stream().text("Hi.").build()).last()
                    .get("type").asText());
            receiver.await("/all", first.runId(), 1);

            RunRequests second = RunRequests.of(first.threadId(), "run-second").user("again");
            assertEquals("RUN_FINISHED", run(AGENT, second, StubResponse.stream().text("Hi again.").build()).last()
                    .get("type").asText(), "the thread was released while its first webhook still waits");
            the("/all", second, WebhookReceiverResource.ALL_SECRET);

            assertEquals(1, receiver.holding(), "the first webhook is still unanswered");
        } finally {
            release.countDown();
        }
    }
}
