package dev.aguistate.agent;

/**
 * When a thread's earlier conversation is summarized (see docs/long-conversations.md): once the messages not yet
 * summarized number {@code afterMessages}, or their estimated tokens reach {@code afterTokens} (0 turns a
 * threshold off; with both off there are no summaries), all but the latest {@code keepRecent} of them are
 * summarized, after the run, by the model {@code model} (null: {@code agui.run.summary.model}, else the agent's).
 */
public record SummaryPolicy(int afterMessages, int afterTokens, int keepRecent, String model) {

    /** No summaries. */
    public static final SummaryPolicy OFF = new SummaryPolicy(0, 0, 10, null);

    public SummaryPolicy {
        if (afterMessages < 0 || afterTokens < 0 || keepRecent < 0) {
            throw new IllegalArgumentException("summary thresholds and keepRecent must not be negative");
        }
        if (afterMessages > 0 && afterMessages <= keepRecent) {
            throw new IllegalArgumentException("summary afterMessages (" + afterMessages
                    + ") must be more than keepRecent (" + keepRecent + "), or nothing would be left to summarize");
        }
    }

    public boolean enabled() {
        return afterMessages > 0 || afterTokens > 0;
    }
}
