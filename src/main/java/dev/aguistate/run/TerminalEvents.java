package dev.aguistate.run;

import dev.aguistate.llm.ModelFailure;
import dev.aguistate.llm.ModelUsage;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.protocol.TokenUsage;
import dev.langchain4j.exception.HttpException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * How a run ends on the wire: one {@code RUN_FINISHED} with its outcome, or one {@code RUN_ERROR} with a stable
 * code and a message without internals; either carries the token usage of all its rounds.
 */
final class TerminalEvents {

    private static final Logger LOG = Logger.getLogger(TerminalEvents.class);

    private final String threadId;
    private final String runId;
    private final String provider;
    private final List<ModelUsage> usages = new ArrayList<>();

    TerminalEvents(String threadId, String runId, String provider) {
        this.threadId = threadId;
        this.runId = runId;
        this.provider = provider;
    }

    void countUsage(ModelUsage usage) {
        usages.add(usage);
    }

    /** What the run's LLM calls used so far, one per call (a sub-agent's count into its parent's). */
    List<ModelUsage> usages() {
        return List.copyOf(usages);
    }

    AgUiEvent finished(RunOutcome outcome) {
        return new AgUiEvent.RunFinished(threadId, runId, null, outcome, usage());
    }

    AgUiEvent failed(Throwable error) {
        if (error instanceof ModelFailure failure) {
            LOG.warnf("threadId=%s runId=%s: run failed: %s (%s)", threadId, runId, failure.kind().code(),
                    cause(failure));
            LOG.debugf(failure, "threadId=%s runId=%s: the upstream's failure in full", threadId, runId);
            return new AgUiEvent.RunError(failure.getMessage(), failure.kind().code(), usage());
        }
        if (error instanceof RunFailure failure) {
            LOG.warnf("threadId=%s runId=%s: run failed: %s", threadId, runId, failure.code());
            return new AgUiEvent.RunError(failure.getMessage(), failure.code(), usage());
        }
        LOG.errorf(error, "threadId=%s runId=%s: run failed unexpectedly", threadId, runId);
        return new AgUiEvent.RunError("The run failed because of an internal error.", "internal_error", usage());
    }

    /**
     * What caused a model failure, for the log: the root exception's type and, for an HTTP error, its status, but
     * never its message, which carries the upstream's response body (that is at DEBUG only).
     */
    static String cause(ModelFailure failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root == failure) {
            return "no cause";
        }
        return root instanceof HttpException http ? "HTTP " + http.statusCode() : root.getClass().getSimpleName();
    }

    /**
     * Token usage of all rounds, summed count by count (AG-UI 1.0: usage is per run; cached and reasoning tokens
     * are parts of the input and output totals); a count no round reported stays absent, and the whole usage is
     * absent when the upstream reported none.
     */
    private List<TokenUsage> usage() {
        if (usages.isEmpty()) {
            return null;
        }
        ModelUsage last = usages.get(usages.size() - 1);
        return List.of(new TokenUsage(provider, last.model(), sum(ModelUsage::inputTokens),
                sum(ModelUsage::outputTokens), sum(ModelUsage::totalTokens), sum(ModelUsage::reasoningTokens),
                sum(ModelUsage::cachedInputTokens)));
    }

    private Integer sum(Function<ModelUsage, Integer> field) {
        Integer total = null;
        for (ModelUsage usage : usages) {
            Integer count = field.apply(usage);
            if (count != null) {
                total = total == null ? count : total + count;
            }
        }
        return total;
    }
}
