package dev.aguistate.session;

import dev.aguistate.agent.OnDisconnect;
import dev.aguistate.run.RunConfig;
import dev.aguistate.store.OutageLog;
import dev.aguistate.store.RunLock;
import dev.aguistate.store.ThreadSignal;
import dev.aguistate.store.ThreadSignals;
import dev.aguistate.store.ThreadKey;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The run requests that wait on this replica for their busy threads ({@code multitask: enqueue}), in arrival order
 * per thread. Only the first of a thread's queue tries to claim it: when any replica announces the thread freed
 * ({@link ThreadSignal.Freed}, sent once a run's end is in its log and its claim given back), when it becomes first,
 * and every {@link #LOOK_AGAIN}, since a signal may be missed or a claim lapse with its crashed replica.
 *
 * <p>Order: on one replica, a thread's requests run in the order they arrived. Across replicas each replica's first
 * competes for the claim when the thread is freed, and whoever's claim the store takes first runs: no order between
 * requests that wait on different replicas is promised. A thread's requests never run at once, whichever replica
 * holds them, since each run holds the thread's claim.
 */
@ApplicationScoped
class RunQueues {

    private static final Logger LOG = Logger.getLogger(RunQueues.class);
    private static final OutageLog CLAIMS = new OutageLog(LOG, "claiming threads for waiting runs",
            "each waiting run tries again when its thread is announced freed, and every second");
    /** How often a thread's first waiting run tries its claim without being told the thread was freed. */
    static final Duration LOOK_AGAIN = Duration.ofSeconds(1);

    /** Guarded by this. */
    private final Map<ThreadKey, Deque<QueuedRun>> waiting = new HashMap<>();
    private final AtomicInteger queued;
    private final ThreadSessions sessions;
    private final ThreadSignals signals;
    private final Vertx vertx;
    private final int maxQueued;

    RunQueues(ThreadSessions sessions, ThreadSignals signals, Vertx vertx, RunConfig config, MeterRegistry meters) {
        this.sessions = sessions;
        this.signals = signals;
        this.vertx = vertx;
        this.maxQueued = config.maxQueued();
        this.queued = meters.gauge("agui.runs.queued", new AtomicInteger());
    }

    void listen(@Observes StartupEvent started) {
        signals.listen(signal -> {
            if (signal instanceof ThreadSignal.Freed freed) {
                first(freed.thread()).ifPresent(this::tryClaim);
            } else if (signal instanceof ThreadSignal.StopQueued stop) {
                stopHere(stop.thread(), stop.runId());
            }
        });
        vertx.setPeriodic(LOOK_AGAIN.toMillis(), tick -> firsts().forEach(this::tryClaim));
    }

    /** Whether runs wait for the thread on this replica: a new request then queues behind them. */
    synchronized boolean hasWaiting(ThreadKey thread) {
        return waiting.containsKey(thread);
    }

    /** Whether the run {@code runId} waits for the thread on this replica. */
    synchronized boolean waits(ThreadKey thread, String runId) {
        Deque<QueuedRun> queue = waiting.get(thread);
        return queue != null && queue.stream().anyMatch(run -> run.runId().equals(runId));
    }

    /**
     * Queues a request for the thread; {@code onClaimed} makes its run once it holds the thread, {@code onGone}
     * gives back what it holds should it leave the queue without running (dropped, stopped).
     *
     * @return the waiting run; a failed Uni with {@link SessionRefused} when {@code agui.run.max-queued} requests
     *         already wait for the thread here
     */
    Uni<QueuedRun> join(ThreadKey thread, String runId, OnDisconnect onDisconnect,
                        Function<RunLock, Uni<QueuedRun.Turn>> onClaimed, Runnable onGone) {
        QueuedRun run = new QueuedRun(thread, runId, onDisconnect, onClaimed, onGone);
        boolean first;
        synchronized (this) {
            Deque<QueuedRun> queue = waiting.computeIfAbsent(thread, key -> new ArrayDeque<>());
            if (queue.size() >= maxQueued) {
                return Uni.createFrom().failure(SessionRefused.queueFull(thread.threadId(), maxQueued,
                        RunAdmission.RETRY_WHEN_BUSY));
            }
            queue.addLast(run);
            first = queue.size() == 1;
        }
        queued.incrementAndGet();
        LOG.infof("threadId=%s runId=%s: the thread is busy; the run waits for it (multitask=enqueue)",
                thread.threadId(), runId);
        if (first) {
            tryClaim(run);
        }
        return Uni.createFrom().item(run);
    }

    /**
     * The client of a waiting request left: with {@code onDisconnect: stop} it is dropped, as if never sent; with
     * {@code continue} it keeps its place and its run goes on without a client.
     *
     */
    void left(QueuedRun run) {
        if (run.onDisconnect() == OnDisconnect.STOP && remove(run)) {
            LOG.infof("threadId=%s runId=%s: the client left while the run waited; it is dropped",
                    run.thread().threadId(), run.runId());
            run.dropped();
        }
    }

    /** Asks every replica to stop the run {@code runId} should it wait for the thread there. */
    Uni<Void> stopEverywhere(ThreadKey thread, String runId) {
        return signals.send(new ThreadSignal.StopQueued(thread, runId));
    }

    /** Tells every replica's waiting runs that the thread is free. */
    Uni<Void> announceFreed(ThreadKey thread) {
        return signals.send(new ThreadSignal.Freed(thread));
    }

    /** Stops the run {@code runId} if it waits here for the thread: it ends cancelled, with nothing stored. */
    private void stopHere(ThreadKey thread, String runId) {
        Optional<QueuedRun> found;
        synchronized (this) {
            found = Optional.ofNullable(waiting.get(thread))
                    .flatMap(queue -> queue.stream().filter(run -> run.runId().equals(runId)).findFirst());
        }
        found.filter(this::remove).ifPresent(run -> {
            LOG.infof("threadId=%s runId=%s: the waiting run was stopped, as asked", thread.threadId(), runId);
            run.stopped();
        });
    }

    /** Takes the run out of its queue; the next, if any, tries the thread. False when it was no longer queued. */
    private boolean remove(QueuedRun run) {
        QueuedRun next;
        synchronized (this) {
            Deque<QueuedRun> queue = waiting.get(run.thread());
            if (queue == null || !queue.remove(run)) {
                return false;
            }
            if (queue.isEmpty()) {
                waiting.remove(run.thread());
            }
            next = queue.peekFirst();
        }
        queued.decrementAndGet();
        if (next != null) {
            tryClaim(next);
        }
        return true;
    }

    /** The thread's first waiting run tries to claim it; once it holds it, it leaves the queue and runs. */
    private void tryClaim(QueuedRun run) {
        if (run.startClaiming()) {
            claim(run);
        }
    }

    private void claim(QueuedRun run) {
        sessions.tryClaim(run.thread(), run.runId()).subscribe().with(claim -> {
            CLAIMS.succeeded();
            if (claim.isEmpty()) {
                if (run.claimingFailed()) {
                    claim(run);
                }
            } else if (remove(run)) {
                run.claimed(claim.get());
            } else {
                // stopped or dropped while it asked: the thread goes to whoever waits next
                sessions.unclaim(claim.get()).chain(() -> announceFreed(run.thread()))
                        .subscribe().with(done -> { }, failure -> { });
            }
        }, failure -> {
            CLAIMS.failed("threadId=" + run.thread().threadId() + " runId=" + run.runId(), failure);
            if (run.claimingFailed()) {
                claim(run);
            }
        });
    }

    private synchronized Optional<QueuedRun> first(ThreadKey thread) {
        return Optional.ofNullable(waiting.get(thread)).map(Deque::peekFirst);
    }

    private synchronized List<QueuedRun> firsts() {
        List<QueuedRun> firsts = new ArrayList<>(waiting.size());
        waiting.values().forEach(queue -> firsts.add(queue.peekFirst()));
        return firsts;
    }
}
