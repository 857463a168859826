package dev.aguistate.store;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Optional;

/**
 * A thread's summary of its earlier conversation, saved beside the thread, and the right to make it, which one
 * replica at a time holds. The summary is read with its thread ({@link StoredThread#conversationSummary()}).
 *
 * <p>Every operation is asynchronous and never blocks the caller's thread, and fails as {@link ThreadStore}'s do
 * ({@link StoreUnavailable} when a store on a server does not answer in time).
 */
public interface ThreadSummaries {

    /**
     * Saves the thread's summary, unless its summary moved on meanwhile: only when the stored one covers up to
     * {@code previousThrough} (null: there is none). Neither the thread's version nor its update time changes, so
     * a run in progress on the thread is not disturbed.
     *
     * @return false when the thread is gone or its summary is not the expected one
     */
    Uni<Boolean> saveSummary(ThreadKey thread, String previousThrough, ConversationSummary summary);

    /**
     * Takes the right to summarize the thread, across all replicas; empty when another replica summarizes it. It is
     * not the run's claim: runs go on meanwhile. It lapses after {@code ttl}.
     */
    Uni<Optional<SummaryLock>> tryLockSummary(ThreadKey thread, Duration ttl);

    /** Gives the summarizing right back, unless it lapsed and another replica took it. */
    Uni<Void> unlockSummary(SummaryLock lock);
}
