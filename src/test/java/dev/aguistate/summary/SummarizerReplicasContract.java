package dev.aguistate.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.llm.TokenEstimator;
import dev.aguistate.protocol.Message;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.testing.TestAgents;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.store.ThreadMeta;
import dev.aguistate.store.ThreadStore;
import dev.aguistate.store.ThreadSummaries;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Two replicas' summarizers on one thread, each with its own client of the shared store and the real LLM adapter
 * against the stub: while one summarizes, the other does not ask the model at all. Subclasses pick the store and
 * make the second replica's store client.
 */
abstract class SummarizerReplicasContract extends StubbedLlmTestBase {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Predicate<JsonNode> SUMMARIZER = request ->
            request.path("model").asText().equals(TestAgents.SUMMARY_MODEL);

    @Inject
    ThreadStore store;
    @Inject
    ThreadSummaries summaries;
    @Inject
    StreamingModel model;
    @Inject
    SummaryConfig config;
    @Inject
    Summarizer summarizer;
    @Inject
    TokenEstimator estimator;

    /**
     * Another replica's summarizer, over the shared store as that replica reaches it: a client of its own (memory:
     * the one store there is); see {@link #summarizerOver}.
     */
    protected abstract Summarizer otherReplicasSummarizer();

    protected Summarizer summarizerOver(ThreadStore threads, ThreadSummaries threadSummaries) {
        return new Summarizer(threads, threadSummaries, model, config, estimator);
    }

    private List<Message> twentyMessagesStored(String threadId) {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            messages.add(new Message.User("u" + i, "Question " + i));
            messages.add(new Message.Assistant("a" + i, "Answer " + i, null));
        }
        store.commit(new ThreadCommit(new StoredThread(threadId, "anonymous", "summarizing",
                JsonNodeFactory.instance.objectNode(), messages, ThreadMeta.EMPTY, 0, Instant.EPOCH, Instant.EPOCH),
                0, List.of())).await().atMost(WAIT);
        return messages;
    }

    /**
     * An upstream that ignores max_tokens (here a summary of about 5 MB) is read only up to
     * {@code agui.run.summary.max-chars}: its stream is cut off there, and the summary saved as cut.
     */
    @Test
    void aSummaryOverTheLimitIsReadOnlyUpToItAndSavedCut() {
        String threadId = "thread-" + UUID.randomUUID();
        List<Message> messages = twentyMessagesStored(threadId);
        String[] deltas = new String[HUGE_DELTAS];
        Arrays.fill(deltas, LONG_WINDED);
        stub.answerWhen(SUMMARIZER, StubResponse.stream().text(deltas).build());

        ThreadKey thread = new ThreadKey("anonymous", threadId);
        assertEquals(Summarizer.Outcome.SAVED, summarizer.summarize(TestAgents.SUMMARIZING, thread, messages, null)
                .await().atMost(WAIT));

        String saved = store.load(thread).await().atMost(WAIT).orElseThrow().conversationSummary().text();
        assertEquals(LONG_WINDED.repeat(HUGE_DELTAS).substring(0, config.charLimit()).strip(), saved);
        assertTrue(stub.awaitClientDisconnect(WAIT), "the rest of the stream is not read");
    }

    private static final String LONG_WINDED = "The user asked ten questions and got ten answers, at length. ".repeat(16);
    /** About 5 MB of summary. */
    private static final int HUGE_DELTAS = 5_000;

    @Test
    void whileOneReplicaSummarizesAThreadTheOtherDoesNotAskTheModel() {
        String threadId = "thread-" + UUID.randomUUID();
        List<Message> messages = twentyMessagesStored(threadId);
        ThreadKey thread = new ThreadKey("anonymous", threadId);
        Summarizer other = otherReplicasSummarizer();
        stub.answerWhen(SUMMARIZER, StubResponse.stream().text("cut off").stallAfter(1).build());

        CompletableFuture<Summarizer.Outcome> first = summarizer.summarize(TestAgents.SUMMARIZING, thread, messages,
                null).subscribeAsCompletionStage();
        stub.awaitRequests(1, WAIT);
        Summarizer.Outcome second = other.summarize(TestAgents.SUMMARIZING, thread, messages, null)
                .await().atMost(WAIT);

        assertEquals(Summarizer.Outcome.BUSY, second);
        assertEquals(1, stub.requests().size(), "one summarization request");
        assertEquals(Summarizer.Outcome.FAILED, first.join(), "the stalled call ends at the idle timeout");

        stub.answerWhen(SUMMARIZER, StubResponse.stream().text("Ten questions were answered.").build());
        assertEquals(Summarizer.Outcome.SAVED, other.summarize(TestAgents.SUMMARIZING, thread, messages, null)
                .await().atMost(WAIT), "the lock is free once the first replica gave up");
        assertEquals("Ten questions were answered.",
                store.load(thread).await().atMost(WAIT).orElseThrow().conversationSummary().text());
        assertEquals(Summarizer.Outcome.NOT_DUE, summarizer.summarize(TestAgents.SUMMARIZING, thread, messages,
                null).await().atMost(WAIT), "a replica that saw the thread before the summary reads it again first");
        assertEquals(2, stub.requests().size());
    }
}
