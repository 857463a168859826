package dev.aguistate.store;

/**
 * Proof that this replica runs the thread now, for the run {@code runId}; {@code token} tells its holder apart from
 * a later one, and names the run's event log ({@link RunEventLog}).
 */
public record RunLock(String threadId, String runId, String token) {}
