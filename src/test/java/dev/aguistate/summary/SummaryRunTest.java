package dev.aguistate.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.session.Caller;
import dev.aguistate.store.ConversationSummary;
import dev.aguistate.store.ThreadSummaries;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.testing.TestAgents;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Summaries through the HTTP API against the LLM stub: after the threshold the model gets the summary in place of
 * the old turns, the next summary builds on the previous one, the thread API shows what the summary covers, and a
 * summarizer that fails or stalls leaves the runs as they were (trimming is the fallback).
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class SummaryRunTest extends StubbedLlmTestBase {

    private static final String AGENT = "/agui/summarizing";
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(20);
    private static final Predicate<JsonNode> SUMMARIZER = request ->
            request.path("model").asText().equals(TestAgents.SUMMARY_MODEL);

    @Inject
    ThreadSummaries summaries;
    @Inject
    SummaryConfig summaryConfig;

    private String threadId;
    private int turn;

    private static String question(int turn) {
        return "Question " + turn + ": what do we do on day " + turn + " in Lisbon?";
    }

    /** One run: the user asks, the model answers; returns the request the model got for it. */
    private JsonNode ask() {
        turn++;
        stub.enqueue(StubResponse.stream().text("Answer " + turn + ": a walk in Alfama.").build());
        int before = runRequests().size();
        RunRequests request = RunRequests.of(threadId, "run-" + turn).user(question(turn));
        SseClient.Stream stream = client.run(AGENT, request.json());
        EventStreamVerifier.verify(stream.events(), threadId, request.runId());
        List<JsonNode> runs = runRequests();
        assertEquals(before + 1, runs.size());
        return runs.get(runs.size() - 1);
    }

    private List<JsonNode> runRequests() {
        return stub.requests().stream().filter(SUMMARIZER.negate()).toList();
    }

    private List<JsonNode> summarizerRequests() {
        return stub.requests().stream().filter(SUMMARIZER).toList();
    }

    private static List<String> contents(JsonNode request) {
        List<String> contents = new ArrayList<>();
        request.get("messages").forEach(m -> contents.add(m.path("content").asText()));
        return contents;
    }

    /** Waits until the thread API shows a summary whose text is {@code text}; returns the thread. */
    private JsonNode awaitSummary(String text) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode thread = storedThread(threadId);
            if (thread.at("/summary/text").asText().equals(text)) {
                return thread;
            }
            LockSupport.parkNanos(POLL.toNanos()); // polls a condition: the summary is written after the run

        }
        throw new AssertionError("no summary '" + text + "' within " + WAIT + ": " + storedThread(threadId));
    }

    private void newThread() {
        threadId = RunRequests.fresh().threadId();
        turn = 0;
    }

    @Test
    void afterTheThresholdTheSummaryReplacesTheOldTurnsAndTheNextOneBuildsOnIt() {
        newThread();
        stub.answerWhen(SUMMARIZER, StubResponse.stream().text("SUMMARY ONE: days 1 and 2 are planned.").build());
        for (int i = 0; i < 3; i++) {
            ask();
        }
        assertTrue(summarizerRequests().isEmpty(), "6 messages: below the threshold of 8");
        ask();

        JsonNode thread = awaitSummary("SUMMARY ONE: days 1 and 2 are planned.");
        JsonNode messages = thread.get("messages");
        assertEquals(8, messages.size(), "the history stays whole");
        assertEquals(messages.get(3).get("id").asText(), thread.at("/summary/throughMessageId").asText(),
                "all but the latest 4 messages are covered");
        assertEquals(4, thread.at("/summary/coveredMessages").asInt());
        JsonNode summarizing = summarizerRequests().get(0);
        String asked = summarizing.at("/messages/1/content").asText();
        assertTrue(asked.contains(question(1)) && asked.contains(question(2)), asked);
        assertFalse(asked.contains(question(3)), "the recent messages are not summarized: " + asked);

        List<String> seen = contents(ask());
        assertTrue(seen.stream().anyMatch(c -> c.contains("SUMMARY ONE")), "the model gets the summary: " + seen);
        assertFalse(seen.contains(question(1)) || seen.contains(question(2)), "not the turns it covers: " + seen);
        assertTrue(seen.contains(question(3)) && seen.contains(question(5)), "but the recent ones: " + seen);

        stub.answerWhen(SUMMARIZER, StubResponse.stream().text("SUMMARY TWO: days 1 to 4 are planned.").build());
        ask();
        awaitSummary("SUMMARY TWO: days 1 to 4 are planned.");
        String incremental = summarizerRequests().get(1).at("/messages/1/content").asText();
        assertTrue(incremental.contains("SUMMARY ONE"), "the previous summary is the start: " + incremental);
        assertFalse(incremental.contains(question(1)), "its turns are not summarized again: " + incremental);
        assertTrue(incremental.contains(question(3)) && incremental.contains(question(4)), incremental);

        List<String> after = contents(ask());
        assertTrue(after.stream().anyMatch(c -> c.contains("SUMMARY TWO")), after.toString());
        assertTrue(after.stream().noneMatch(c -> c.contains("SUMMARY ONE")), after.toString());
        assertFalse(after.contains(question(4)), after.toString());
    }

    /**
     * An upstream that ignores max_tokens (a summary of about 5 MB) is read only up to agui.run.summary.max-chars:
     * the summary is cut there, the thread API shows it so, and the runs after it go on with it.
     */
    @Test
    void aSummaryOverTheLimitIsCutThereAndTheRunsGoOnWithIt() {
        newThread();
        String[] deltas = new String[5_000];
        Arrays.fill(deltas, LONG_WINDED);
        stub.answerWhen(SUMMARIZER, StubResponse.stream().text(deltas).build());
        for (int i = 0; i < 4; i++) {
            ask();
        }
        String cut = LONG_WINDED.repeat(deltas.length).substring(0, summaryConfig.charLimit()).strip();

        awaitSummary(cut);
        List<String> seen = contents(ask());

        assertTrue(stub.awaitClientDisconnect(WAIT), "the rest of the summary is not read");
        assertTrue(seen.stream().anyMatch(c -> c.contains(cut)), "the model gets the summary as cut");
    }

    /**
     * A summary over the limit that is stored already (an upstream ignored max_tokens before summaries were read
     * only up to the limit) is not shown to the model, and the next summary starts again from the first message,
     * in its place.
     */
    @Test
    void aStoredSummaryOverTheLimitIsNotUsedAndTheNextOneReplacesIt() {
        newThread();
        ask();
        ask();
        String through = storedThread(threadId).at("/messages/1/id").asText();
        summaries.saveSummary(Caller.ANONYMOUS.thread(threadId), null, new ConversationSummary(LONG_WINDED.repeat(200),
                through, 2, Instant.now())).await().atMost(WAIT);
        stub.answerWhen(SUMMARIZER, StubResponse.stream().text("SUMMARY AGAIN: days 1 to 2 are planned.").build());

        List<String> seen = contents(ask());
        ask();

        assertTrue(seen.stream().noneMatch(c -> c.contains(LONG_WINDED)), "the model does not get it: " + seen);
        assertTrue(seen.contains(question(1)), "but the messages it covers: " + seen);
        awaitSummary("SUMMARY AGAIN: days 1 to 2 are planned.");
        String asked = summarizerRequests().get(0).at("/messages/1/content").asText();
        assertFalse(asked.contains(LONG_WINDED), "the new summary does not build on it");
        assertTrue(asked.contains(question(1)), "it starts again from the first message: " + asked);
    }

    private static final String LONG_WINDED = "Days 1 and 2 in Lisbon are planned, at great length. ".repeat(20);

    @Test
    void aSummarizerThatFailsLeavesTheRunsAsTheyWere() {
        newThread();
        stub.answerWhen(SUMMARIZER, StubResponse.error(500, "{\"error\":{\"message\":\"summaries are down\"}}"));
        for (int i = 0; i < 4; i++) {
            ask();
        }
        assertTrue(stub.awaitRequests(5, WAIT), "the summarizer asked");

        List<String> seen = contents(ask());

        assertTrue(seen.contains(question(1)) && seen.contains(question(5)), "the whole conversation: " + seen);
        assertTrue(storedThread(threadId).path("summary").isMissingNode());
    }

    @Test
    void aSummarizerThatStallsLeavesTheRunsAsTheyWere() {
        newThread();
        stub.answerWhen(SUMMARIZER, StubResponse.stream().text("never finished").stallAfter(1).build());
        for (int i = 0; i < 4; i++) {
            ask();
        }
        assertTrue(stub.awaitRequests(5, WAIT), "the summarizer asked");

        List<String> seen = contents(ask());
        ask();

        assertTrue(seen.contains(question(1)) && seen.contains(question(5)), "the whole conversation: " + seen);
        assertTrue(storedThread(threadId).path("summary").isMissingNode());
    }
}
