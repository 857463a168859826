package dev.aguistate.store;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Optional;

/**
 * The run claims on threads: which run holds a thread, across all replicas, so that one run at a time writes it.
 * A claim is named by its thread's {@link ThreadKey}, so each owner's threads are claimed apart.
 *
 * <p>Every operation is asynchronous and never blocks the caller's thread, and fails as {@link ThreadStore}'s do
 * ({@link StoreUnavailable} when a store on a server does not answer in time).
 */
public interface ThreadLocks {

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
}
