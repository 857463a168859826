package dev.aguistate.summary;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.SummaryPolicy;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.llm.TokenEstimator;
import dev.aguistate.protocol.Message;
import dev.aguistate.store.ConversationSummary;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.SummaryLock;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.store.ThreadStore;
import dev.aguistate.store.ThreadSummaries;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Summarizes threads' earlier conversation after their runs, so that no user waits for it. A run's commit hands
 * the thread over ({@link #committed}); when a threshold of the agent's {@link SummaryPolicy} is passed, the
 * summarizer takes the thread's summarizing lock (one replica at a time, never the run's claim), reads the
 * thread as it is now, asks the model for the previous summary updated with what came since, and saves it beside
 * the thread if the stored summary did not move on meanwhile.
 *
 * <p>Nothing here can fail or delay a run: it starts after the commit, is not waited for, and ends in an
 * {@link Outcome} whatever happens; a call longer than {@code agui.run.summary.timeout} is cancelled. A thread
 * whose summary is missing or late is still within its token budget: the run's trimming is the fallback.
 */
@ApplicationScoped
@Startup
public class Summarizer {

    private static final Logger LOG = Logger.getLogger(Summarizer.class);
    /** The lock outlives the call's timeout by this much, for the load before and the save after it. */
    private static final Duration LOCK_SLACK = Duration.ofSeconds(30);

    /** How a summarization attempt ended. */
    public enum Outcome {
        /** No threshold passed, or the policy is off. */
        NOT_DUE,
        /** Another replica (or an earlier attempt here) summarizes the thread now. */
        BUSY,
        /** A new summary is stored. */
        SAVED,
        /** The stored summary moved on meanwhile (or the thread is gone): nothing was saved. */
        MOVED_ON,
        /** The model or the store failed, or the call timed out; the next run's commit tries again. */
        FAILED
    }

    private final ThreadStore store;
    private final ThreadSummaries summaries;
    private final StreamingModel model;
    private final SummaryConfig config;
    private final TokenEstimator estimator;
    /** {@code agui.run.summary.*}, checked at start-up (made at start-up: a bad setting stops the server). */
    private final SummaryPolicy serverPolicy;

    Summarizer(ThreadStore store, ThreadSummaries summaries, StreamingModel model, SummaryConfig config,
               TokenEstimator estimator) {
        this.store = store;
        this.summaries = summaries;
        this.model = model;
        this.config = config;
        this.estimator = estimator;
        this.serverPolicy = config.policy();
    }

    /**
     * Whether a run may show the LLM this stored summary: not one longer than {@code agui.run.summary.max-chars},
     * which an upstream that ignored its token limit wrote before summaries were read only up to it.
     */
    public boolean usable(ConversationSummary summary) {
        return summary.text().length() <= config.charLimit();
    }

    /** The agent's own policy, else the server's. */
    public SummaryPolicy policyFor(AgentDefinition agent) {
        return agent.summary() != null ? agent.summary() : serverPolicy;
    }

    /**
     * A run of {@code agent} committed {@code thread}; summarizes it in the background if it is due.
     *
     * @param known the summary the thread had when the run started, or null
     */
    public void committed(AgentDefinition agent, StoredThread thread, ConversationSummary known) {
        SummaryPolicy policy = policyFor(agent);
        if (policy.enabled()) {
            summarize(policy, thread.key(), thread.messages(), known).subscribe().with(
                    outcome -> LOG.debugf("threadId=%s: summarization %s", thread.threadId(), outcome));
        }
    }

    /** One attempt, as {@link #committed} makes it; never fails. */
    public Uni<Outcome> summarize(SummaryPolicy policy, ThreadKey thread, List<Message> messages,
                                  ConversationSummary known) {
        return plan(policy, messages, known)
                .chain(due -> due.isEmpty() ? Uni.createFrom().item(Outcome.NOT_DUE)
                        : summaries.tryLockSummary(thread, config.timeout().plus(LOCK_SLACK))
                                .chain(lock -> lock.isEmpty() ? Uni.createFrom().item(Outcome.BUSY)
                                        : holding(lock.get(), policy)))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("threadId=%s: summarizing the earlier conversation failed (runs trim it instead): %s",
                            thread.threadId(), failure.toString());
                    return Outcome.FAILED;
                });
    }

    /** Counting tokens of a long thread takes a few milliseconds: not on an event loop. */
    private Uni<Optional<SummaryPlan>> plan(SummaryPolicy policy, List<Message> messages, ConversationSummary known) {
        return Uni.createFrom().item(() -> SummaryPlan.of(messages, known, known != null && usable(known), policy,
                        estimator))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    /** Under the lock: the thread as it is now, then the summary if still due; the lock is given back however it ends. */
    private Uni<Outcome> holding(SummaryLock lock, SummaryPolicy policy) {
        return store.load(lock.thread())
                .chain(found -> found.isEmpty() ? Uni.createFrom().item(Outcome.MOVED_ON)
                        : plan(policy, found.get().messages(), found.get().conversationSummary())
                                .chain(due -> due.isEmpty() ? Uni.createFrom().item(Outcome.NOT_DUE)
                                        : write(lock.thread(), policy, due.get())))
                .onTermination().call(() -> summaries.unlockSummary(lock).onFailure().recoverWithNull());
    }

    /**
     * Asks the model for the summary and saves it. At most {@code agui.run.summary.max-chars} of it are read: an
     * upstream that ignores the token limit is cut off there (its stream cancelled), rather than read to the end.
     */
    private Uni<Outcome> write(ThreadKey thread, SummaryPolicy policy, SummaryPlan plan) {
        ChatRequest.Builder request = ChatRequest.builder()
                .messages(SummaryPrompt.messages(plan.previousText(), plan.newMessages()))
                .maxOutputTokens(config.maxTokens());
        Optional.ofNullable(policy.model()).or(config::model).ifPresent(request::modelName);
        return SummaryText.read(model, request.build(), config.charLimit(), config.timeout())
                .chain(text -> {
                    if (text.full()) {
                        LOG.warnf("threadId=%s: the model's summary reached agui.run.summary.max-chars (%d) and is "
                                + "cut there; the model ignores max_tokens (%d)", thread.threadId(),
                                config.charLimit(), config.maxTokens());
                    }
                    String summary = text.toString().strip();
                    return summary.isEmpty()
                            ? Uni.createFrom().failure(new IllegalStateException("the model wrote an empty summary"))
                            : summaries.saveSummary(thread, plan.expectedThrough(), new ConversationSummary(summary,
                                    plan.throughMessageId(), plan.coveredMessages(), Instant.now()));
                })
                .map(saved -> saved ? Outcome.SAVED : Outcome.MOVED_ON);
    }
}
