package dev.aguistate.summary;

import dev.aguistate.agent.SummaryPolicy;
import dev.aguistate.llm.TokenEstimator;
import dev.aguistate.protocol.Message;
import dev.aguistate.store.ConversationSummary;
import java.util.List;
import java.util.Optional;

/**
 * What the next summary of a thread covers, when one is due: the previous summary (if it still applies) and the
 * messages after it up to the recent ones that stay as they are. The recent window never starts with a tool
 * result: the assistant call before it stays recent with it.
 *
 * @param expectedThrough  what the stored summary covers up to (null: none), for the compare-and-set save
 * @param previousText     the summary to build on, or null when there is none or a rewind dropped what it covers
 * @param newMessages      the messages to fold into it
 * @param throughMessageId the last of them: the new summary covers up to it
 * @param coveredMessages  how many messages the new summary covers
 */
record SummaryPlan(String expectedThrough, String previousText, List<Message> newMessages, String throughMessageId,
                   int coveredMessages) {

    /**
     * @param previous       the stored summary, or null
     * @param previousUsable whether to build on it; if not (it is too long), the next summary starts again from
     *                       the first message, and replaces it
     */
    static Optional<SummaryPlan> of(List<Message> messages, ConversationSummary previous, boolean previousUsable,
                                    SummaryPolicy policy, TokenEstimator estimator) {
        if (!policy.enabled()) {
            return Optional.empty();
        }
        int covered = previous == null || !previousUsable ? 0 : indexOf(messages, previous.throughMessageId()) + 1;
        int end = messages.size() - policy.keepRecent();
        while (end > covered && end < messages.size() && messages.get(end) instanceof Message.Tool) {
            end--;
        }
        if (end <= covered) {
            return Optional.empty();
        }
        List<Message> pending = messages.subList(covered, messages.size());
        boolean due = policy.afterMessages() > 0 && pending.size() >= policy.afterMessages()
                || policy.afterTokens() > 0 && estimator.text(SummaryPrompt.transcript(pending)) >= policy.afterTokens();
        if (!due) {
            return Optional.empty();
        }
        return Optional.of(new SummaryPlan(previous == null ? null : previous.throughMessageId(),
                covered > 0 ? previous.text() : null, List.copyOf(messages.subList(covered, end)),
                messages.get(end - 1).id(), end));
    }

    /** -1 when absent: a rewind dropped it. */
    private static int indexOf(List<Message> messages, String id) {
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }
}
