package dev.aguistate.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A thread's summary of its earlier conversation, which the LLM gets in place of the messages it covers: every
 * message up to and including {@code throughMessageId}. It is kept beside the thread, not in its history (which
 * stays whole for the UI), and saved apart from the thread's commits ({@link ThreadSummaries#saveSummary}), so that
 * writing it never conflicts with a run.
 *
 * @param coveredMessages how many messages it covers, the first one on
 * @param createdAt       when it was written
 */
public record ConversationSummary(String text, String throughMessageId, int coveredMessages, Instant createdAt) {

    public ConversationSummary {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(throughMessageId, "throughMessageId");
    }
}
