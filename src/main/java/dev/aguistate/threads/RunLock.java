package dev.aguistate.threads;

/** Proof that this replica runs the thread now; {@code token} tells its holder apart from a later one. */
public record RunLock(String threadId, String token) {}
