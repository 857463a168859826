package dev.aguistate.store;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/**
 * Where threads and shared scopes live: in memory (one replica) or in Redis or PostgreSQL (several replicas
 * behind a load balancer, any of which may serve any thread). A thread is named by a {@link ThreadKey}, its owner
 * and its id: each owner has thread ids of their own. Beside the threads, each backend keeps their run claims
 * ({@link ThreadLocks}) and their summaries ({@link ThreadSummaries}) on the same connection
 * ({@link ThreadBackend}); a caller asks for the port it uses.
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

    /**
     * Saves the thread's info (name, archived, metadata), unless it moved on meanwhile: only when the stored info is
     * {@code expected}. Neither the thread's version nor its update time changes, so a run in progress on the thread
     * is not disturbed, and its commit keeps the new info.
     *
     * @return false when the thread is gone or its info is not {@code expected}
     */
    Uni<Boolean> saveInfo(ThreadKey thread, ThreadInfo expected, ThreadInfo info);

    /** True if the thread existed. */
    Uni<Boolean> delete(ThreadKey thread);

    /** The owner's threads, most recently updated first. */
    Uni<List<ThreadSummary>> list(String owner, int offset, int limit);

    /** Succeeds when the store answers, as cheaply as it can: what readiness checks. */
    Uni<Void> ping();
}
