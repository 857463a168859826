package dev.aguistate.store;

/**
 * Proof that this replica summarizes the thread now; a lock of its own, never the run's claim, so that a run and
 * a summarization of its thread may go on at once. {@code token} tells its holder apart from a later one.
 */
public record SummaryLock(ThreadKey thread, String token) {

    public String threadId() {
        return thread.threadId();
    }
}
