package dev.aguistate.session;

import dev.aguistate.store.RunLock;
import dev.aguistate.store.ThreadSignal;
import dev.aguistate.store.ThreadSignals;
import dev.aguistate.store.StoreConfig;
import dev.aguistate.store.ThreadLocks;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * A caller's live run on a thread, as every replica sees it: the claim on the caller's thread (claims are kept by
 * owner and thread id, so another user's run of the same thread id is not found), checked once more against the
 * caller, since whoever holds the claim's token may read the run's log and stop it. Connect, join, resume and stop
 * all find the live run here.
 */
@ApplicationScoped
@Startup
public class RunClaims {

    private static final Logger LOG = Logger.getLogger(RunClaims.class);
    /** How often {@link #stopAndAwait} looks whether the stopped run has let go of its thread. */
    private static final Duration POLL = Duration.ofMillis(50);

    private final ThreadLocks locks;
    private final ThreadSignals stops;
    private final StoreConfig config;
    private final RunQueues queues;

    RunClaims(ThreadLocks locks, ThreadSignals stops, StoreConfig config, RunQueues queues) {
        this.locks = locks;
        this.stops = stops;
        this.config = config;
        this.queues = queues;
    }

    /** The caller's live run on the thread, on whichever replica; empty when none is live. */
    Uni<Optional<RunLock>> of(Caller caller, String threadId) {
        return locks.claim(caller.thread(threadId)).map(claim -> claim.filter(run -> ownedBy(run, caller)));
    }

    /**
     * Asks the replica that runs the caller's live run on the thread to stop it; with {@code runId}, only if that run
     * is the live one (a stop meant for a run that ended never stops the next), else the run {@code runId} that waits
     * for the thread ({@code multitask: enqueue}) on whichever replica, which then ends cancelled without running.
     *
     * @return whether a run was live, or waited on this replica (and so was asked)
     */
    Uni<Boolean> stop(Caller caller, String threadId, Optional<String> runId) {
        return of(caller, threadId).map(claim -> claim.filter(live -> runId.isEmpty() || runId.get().equals(live.runId())))
                .chain(claim -> {
                    if (claim.isPresent()) {
                        return stops.send(new ThreadSignal.Stop(claim.get().token())).replaceWith(true);
                    }
                    if (runId.isEmpty()) {
                        return Uni.createFrom().item(false);
                    }
                    boolean waitsHere = queues.waits(caller.thread(threadId), runId.get());
                    return queues.stopEverywhere(caller.thread(threadId), runId.get()).replaceWith(waitsHere);
                });
    }

    /**
     * Stops the caller's live run on the thread, if any, and waits until it has let go of the thread (its end kept),
     * at most {@code agui.store.timeout}, what the commit of its end may take: a stop is delivered at most once, and a
     * run that did not hear it fails its next commit once its thread is gone, which it cannot bring back.
     */
    Uni<Void> stopAndAwait(Caller caller, String threadId) {
        return of(caller, threadId).chain(claim -> claim.isEmpty() ? Uni.createFrom().voidItem()
                : stops.send(new ThreadSignal.Stop(claim.get().token())).chain(() -> released(claim.get(),
                        System.nanoTime() + config.timeout().toNanos())));
    }

    private Uni<Void> released(RunLock run, long deadline) {
        return locks.claim(run.thread()).chain(claim -> {
            if (claim.isEmpty() || !claim.get().token().equals(run.token())) {
                return Uni.createFrom().voidItem();
            }
            if (System.nanoTime() >= deadline) {
                LOG.warnf("threadId=%s runId=%s: the stopped run still holds its thread after agui.store.timeout; the thread is deleted under it",
                        run.threadId(), run.runId());
                return Uni.createFrom().voidItem();
            }
            return Uni.createFrom().voidItem().onItem().delayIt().by(POLL)
                    .chain(() -> released(run, deadline));
        });
    }

    /** The one answer to "is this live run the caller's". */
    private static boolean ownedBy(RunLock run, Caller caller) {
        if (run.owner().equals(caller.owner())) {
            return true;
        }
        LOG.errorf("threadId=%s runId=%s: the store returned another owner's claim; it is not the caller's",
                run.threadId(), run.runId());
        return false;
    }
}
