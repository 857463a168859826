package dev.aguistate.store;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where threads and shared scopes live: in memory (one replica) or in Redis or PostgreSQL (several replicas
 * behind a load balancer, any of which may serve any thread). A thread, its run claim and its summarizing lock are
 * named by a {@link ThreadKey}, its owner and its id: each owner has thread ids of their own.
 *
 * <p>Every operation is asynchronous and never blocks the caller's thread. Reading a thread refreshes its
 * time to live. An operation fails with a {@link StoreFailure} when the store knows why: {@link VersionConflict},
 * {@link ThreadTooLarge}, or, for the stores on a server, {@link StoreUnavailable} when the server did not answer
 * within {@code agui.store.timeout} or failed. Implementations are checked by one contract test suite.
 */
public interface ThreadStore {

    /** The thread, if it exists and has not expired. */
    Uni<Optional<StoredThread>> load(ThreadKey thread);

    /** A shared scope's state; version 0 and an empty object if it was never stored. */
    Uni<ScopedState> loadScope(String scope);

    /**
     * Stores a run's outcome atomically.
     *
     * @return the stored thread, with its new version and update time
     * @throws VersionConflict (as the failure) when the thread or a scope moved on since it was read
     * @throws ThreadTooLarge (as the failure) when the thread or a scope would exceed the store's size limit
     */
    Uni<StoredThread> commit(ThreadCommit commit);

    /** True if the thread existed. */
    Uni<Boolean> delete(ThreadKey thread);

    /** The owner's threads, most recently updated first. */
    Uni<List<ThreadSummary>> list(String owner, int offset, int limit);

    /**
     * Claims the thread for the run {@code runId}, across all replicas; empty when another run holds it. The claim
     * lapses after {@code ttl} so that a crashed replica cannot block the thread forever.
     */
    Uni<Optional<RunLock>> tryLock(ThreadKey thread, String runId, Duration ttl);

    /** The claim on the thread now, whichever replica holds it: the live run, if any. */
    Uni<Optional<RunLock>> claim(ThreadKey thread);

    /**
     * Extends a claim that is still held to {@code ttl} from now, so that a run longer than the claim's time to
     * live keeps its thread; false when the claim lapsed (another run may hold the thread by now).
     */
    Uni<Boolean> renew(RunLock lock, Duration ttl);

    /** Gives the claim back; a claim that already lapsed and was taken by another run is left alone. */
    Uni<Void> unlock(RunLock lock);

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

    /** Succeeds when the store answers, as cheaply as it can: what readiness checks. */
    Uni<Void> ping();
}
