package dev.aguistate.session;

import dev.aguistate.agent.OnDisconnect;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.protocol.SseFrames;
import dev.aguistate.store.RunLock;
import dev.aguistate.store.ThreadKey;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * A run request waiting on this replica for its busy thread ({@code multitask: enqueue}), from its request until its
 * turn comes, it is stopped, or its client leaves. Its stream opens at once with a comment (so the client sees it
 * was accepted) and then carries the run's frames, from {@code RUN_STARTED}, once the run has the thread.
 *
 * <p>The hand-over of the run to the client is a race with the client leaving: whoever comes second does the rest.
 * A turn that finds the client gone has its {@link Turn#withdraw} run (the claim given back, or, with
 * {@code onDisconnect: continue}, the run started without anyone reading); a client that leaves once the turn came
 * but before it took the frames runs it too. A client that leaves while the run still waits is the queue's business
 * ({@link RunQueues}): with {@code onDisconnect: stop} the request is dropped, without a trace in the thread.
 */
final class QueuedRun {

    private static final Logger LOG = Logger.getLogger(QueuedRun.class);

    /**
     * What a turn hands the client: the run's frames, which start the run when subscribed, and what gives back what
     * the run holds when nobody takes them.
     */
    record Turn(Multi<byte[]> frames, Runnable withdraw) {

        /**
         * A turn that holds nothing: the request's run starts and at once ends with {@code terminal}, which tells the
         * client how the request ended.
         */
        static Turn ended(String threadId, String runId, AgUiEvent terminal) {
            return new Turn(Multi.createFrom().items(
                    SseFrames.frame(new AgUiEvent.RunStarted(threadId, runId)), SseFrames.frame(terminal)), () -> { });
        }
    }

    private enum Stage { WAITING, CLIENT_GONE, OFFERED, DONE }

    private final ThreadKey thread;
    private final String runId;
    private final OnDisconnect onDisconnect;
    private final Function<RunLock, Uni<Turn>> onClaimed;
    private final Runnable onGone;
    /** 0: not trying to claim; 1: trying; 2: trying, and asked to try again when that attempt fails. */
    private final AtomicInteger claiming = new AtomicInteger();
    /** Guarded by this, as are the fields below. */
    private Stage stage = Stage.WAITING;
    private UniEmitter<? super Multi<byte[]>> client;
    private Turn offered;

    /**
     * @param onClaimed what the run does once it holds its thread: open the session and make the run
     * @param onGone    gives back what the request holds when it leaves the queue without running
     */
    QueuedRun(ThreadKey thread, String runId, OnDisconnect onDisconnect, Function<RunLock, Uni<Turn>> onClaimed,
              Runnable onGone) {
        this.thread = thread;
        this.runId = runId;
        this.onDisconnect = onDisconnect;
        this.onClaimed = onClaimed;
        this.onGone = onGone;
    }

    ThreadKey thread() {
        return thread;
    }

    String runId() {
        return runId;
    }

    OnDisconnect onDisconnect() {
        return onDisconnect;
    }

    /**
     * The client's stream: a comment at once, then the turn's frames. {@code onLeftWaiting} runs when the client
     * leaves before the turn came.
     */
    Multi<byte[]> stream(Runnable onLeftWaiting) {
        Multi<byte[]> turn = Uni.createFrom().<Multi<byte[]>>emitter(this::attach).toMulti()
                .onItem().transformToMultiAndConcatenate(frames -> frames);
        return Multi.createBy().concatenating().streams(Multi.createFrom().item(SseFrames.keepAlive()), turn)
                .onCancellation().invoke(() -> clientGone(onLeftWaiting));
    }

    /** Its turn came: the run holds the thread (and is made from {@code claim}). */
    void claimed(RunLock claim) {
        onClaimed.apply(claim).subscribe().with(this::offer, failure -> LOG.errorf(failure,
                "threadId=%s runId=%s: the waiting run could not be started", thread.threadId(), runId));
    }

    /** Its client left while it waited, and it left the queue: nothing of it remains. */
    void dropped() {
        onGone.run();
    }

    /** It was stopped while it waited, and left the queue: its client sees it start and end cancelled. */
    void stopped() {
        onGone.run();
        offer(Turn.ended(thread.threadId(), runId,
                new AgUiEvent.RunFinished(thread.threadId(), runId, null, new RunOutcome.Cancelled(), null)));
    }

    private void offer(Turn turn) {
        UniEmitter<? super Multi<byte[]>> to = null;
        boolean withdraw = false;
        synchronized (this) {
            if (stage == Stage.CLIENT_GONE) {
                stage = Stage.DONE;
                withdraw = true;
            } else if (stage == Stage.WAITING) {
                stage = Stage.OFFERED;
                offered = turn;
                to = client;
            }
        }
        if (withdraw) {
            turn.withdraw().run();
        } else if (to != null) {
            to.complete(Multi.createFrom().deferred(this::take));
        }
    }

    /**
     * Begins an attempt to claim the thread, unless one is under way (which is then asked to try again when it
     * fails: the thread may have been freed while it asked).
     *
     * @return true when the caller is to make the attempt
     */
    boolean startClaiming() {
        return claiming.getAndUpdate(now -> now == 0 ? 1 : 2) == 0;
    }

    /** @return true when the attempt that failed is to be made again */
    boolean claimingFailed() {
        return claiming.getAndUpdate(now -> now == 2 ? 1 : 0) == 2;
    }

    private void attach(UniEmitter<? super Multi<byte[]>> emitter) {
        boolean ready;
        synchronized (this) {
            client = emitter;
            ready = stage == Stage.OFFERED;
        }
        if (ready) {
            emitter.complete(Multi.createFrom().deferred(this::take));
        }
    }

    /** The offered frames for the one client that subscribes first; nothing once the client left. */
    private synchronized Multi<byte[]> take() {
        if (stage != Stage.OFFERED) {
            return Multi.createFrom().empty();
        }
        stage = Stage.DONE;
        return offered.frames();
    }

    private void clientGone(Runnable onLeftWaiting) {
        Turn untaken = null;
        boolean waiting = false;
        synchronized (this) {
            if (stage == Stage.WAITING) {
                stage = Stage.CLIENT_GONE;
                waiting = true;
            } else if (stage == Stage.OFFERED) {
                stage = Stage.DONE;
                untaken = offered;
            }
        }
        if (waiting) {
            onLeftWaiting.run();
        } else if (untaken != null) {
            untaken.withdraw().run();
        }
    }
}
