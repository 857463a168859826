package dev.aguistate.store;

/**
 * Proof that this replica runs the thread now, for the run {@code runId}; {@code token} tells its holder apart from
 * a later one, and names the run's event log ({@link RunEventLog}). The claim is its owner's: it is found by the
 * thread's {@link ThreadKey}, so it names whose run it is.
 */
public record RunLock(ThreadKey thread, String runId, String token) {

    public String threadId() {
        return thread.threadId();
    }

    /** The owner's key of the thread, and so of the run. */
    public String owner() {
        return thread.owner();
    }
}
