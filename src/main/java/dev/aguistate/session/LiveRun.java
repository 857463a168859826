package dev.aguistate.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.agent.OnDisconnect;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.mutiny.DirectSubscriber;
import dev.aguistate.run.RunInbox;
import dev.aguistate.run.StopSwitch;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.OutageLog;
import dev.aguistate.store.RunEventLog;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.AbstractMultiOperator;
import io.smallrye.mutiny.operators.multi.MultiOperatorProcessor;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.smallrye.mutiny.subscription.MultiSubscriber;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * A run going on on this replica, independent of any connection. It reads its events as fast as the run makes
 * them, numbers them (seq 1, 2, …), hands each to the connection that started it, if still attached, and appends
 * them to the run's event log in batches (one append in flight at a time), from which any replica serves clients
 * that resume or join. Entry 0 of the log is the run's base: the state its client started from, which a join
 * prelude projects the events over, and the thread as the run found it ({@link RunBefore}), which a rollback restores.
 *
 * <p>The starting connection has a window of {@code agui.run.follow-window} events: a client that falls further
 * behind is disconnected (and may resume from its cursor); it never slows the run. When the connection closes,
 * {@link OnDisconnect} decides whether the run stops. After its terminal event the run's log is saved to the end,
 * then the thread is released and the log expires after {@code agui.run.events-ttl}.
 */
final class LiveRun {

    private static final Logger LOG = Logger.getLogger(LiveRun.class);
    /** Appends that may fail in a row (each bounded by agui.store.timeout) before a batch is given up. */
    private static final int MAX_FAILED_SAVES = 3;
    /** All runs' appends: while the store is down, every run's every batch fails, which is one condition. */
    private static final OutageLog APPENDS = new OutageLog(LOG, "appending runs' events to their logs",
            "a batch that fails " + MAX_FAILED_SAVES + " times is left out of its log, and a client that resumes such "
                    + "a run may miss those events");

    private final ThreadSession session;
    private final RunEventLog log;
    private final OnDisconnect onDisconnect;
    private final StopSwitch stop = new StopSwitch();
    private final RunInbox inbox = new RunInbox();
    private final Consumer<LiveRun> onSaved;
    private final RunFrames frames;
    /** Events not yet in the log, oldest first; guarded by this, as are the fields up to {@link #starter}. */
    private final List<LoggedEvent> unsaved = new ArrayList<>();
    private boolean saving;
    private boolean ended;
    private MultiEmitter<? super byte[]> starter;
    /** The run's {@code RUN_FINISHED} or {@code RUN_ERROR}, once published, and when. */
    private AgUiEvent terminal;
    private Instant endedAt;
    private final Instant startedAt = Instant.now();
    /** The last event's number: {@link #publish}'s own, which the run calls one event at a time. */
    private long seq;
    /** Frames, and their bytes, the starting connection took from its buffer: how far behind it is. */
    private final AtomicLong starterTook = new AtomicLong();
    private final AtomicLong starterTookBytes = new AtomicLong();
    private long sentBytes;
    private FollowWindow window;
    private int failedSaves;

    /** @param onSaved called once, when the run has ended and its log holds all of it */
    LiveRun(ThreadSession session, RunEventLog log, OnDisconnect onDisconnect, Consumer<LiveRun> onSaved) {
        this.session = session;
        this.log = log;
        this.onDisconnect = onDisconnect;
        this.onSaved = onSaved;
        this.frames = new RunFrames(session.lock().runId(), session.lock().token());
        JsonNode state = session.start().input().state();
        ObjectNode base = JsonNodeFactory.instance.objectNode()
                .set("state", state == null ? JsonNodeFactory.instance.objectNode() : state);
        RunBefore.of(session.start()).writeTo(base);
        unsaved.add(new LoggedEvent(0, AgUiJson.write(base)));
    }

    ThreadSession session() {
        return session;
    }

    String key() {
        return session.lock().token();
    }

    String runId() {
        return session.lock().runId();
    }

    String threadId() {
        return session.lock().threadId();
    }

    /** When the run was made, its thread claimed. */
    Instant startedAt() {
        return startedAt;
    }

    /** The run's terminal event; null until it is published, or when the run's stream broke without one. */
    synchronized AgUiEvent terminal() {
        return terminal;
    }

    /** When its terminal event was published; null as {@link #terminal()} is. */
    synchronized Instant endedAt() {
        return endedAt;
    }

    StopSwitch stopSwitch() {
        return stop;
    }

    /** Where messages steered into the run wait for its next round boundary. */
    RunInbox inbox() {
        return inbox;
    }

    void stop(StopSwitch.Reason reason) {
        stop.stop(reason);
    }

    /**
     * The starting connection's frames: every event of the run, as the run makes them, until its terminal event.
     * It fails with {@link FellBehind} when the client falls further behind than {@code window}. {@code onAttached}
     * runs once the connection is attached: what starts the run, so that it misses nothing.
     */
    Multi<byte[]> attachStarter(FollowWindow window, Runnable onAttached) {
        this.window = window;
        return new CountedTaking(Multi.createFrom().<byte[]>emitter(emitter -> {
            synchronized (this) {
                starter = emitter;
            }
            emitter.onTermination(() -> starterGone(emitter));
            onAttached.run();
        }, BackPressureStrategy.BUFFER));
    }

    /**
     * Counts the frames, and their bytes, the starting connection takes from its buffer. An operator rather than
     * {@code onItem().invoke}, whose callback Mutiny would wrap in a context restore paid by every frame.
     */
    private final class CountedTaking extends AbstractMultiOperator<byte[], byte[]> {

        CountedTaking(Multi<byte[]> buffered) {
            super(buffered);
        }

        @Override
        public void subscribe(MultiSubscriber<? super byte[]> downstream) {
            upstream.subscribe().withSubscriber(new MultiOperatorProcessor<byte[], byte[]>(downstream) {
                @Override
                public void onItem(byte[] frame) {
                    starterTook.incrementAndGet();
                    starterTookBytes.addAndGet(frame.length);
                    super.onItem(frame);
                }
            });
        }
    }

    /** The starting connection closed, finished or fell behind; only a client that left may stop the run. */
    private void starterGone(MultiEmitter<? super byte[]> emitter) {
        boolean left;
        synchronized (this) {
            left = starter == emitter && !ended;
            starter = null;
        }
        if (left && onDisconnect == OnDisconnect.STOP) {
            LOG.infof("threadId=%s runId=%s: the client left; stopping the run (onDisconnect=stop)", threadId(),
                    runId());
            stop.stop(StopSwitch.Reason.REQUESTED);
        }
    }

    /** Follows the run's events; call once, after the starter attached. */
    void start(Multi<AgUiEvent> events) {
        DirectSubscriber.subscribe(events, this::publish, failure -> {
            // the run loop turns failures into RUN_ERROR events, so this is a bug: end what is attached
            LOG.errorf(failure, "threadId=%s runId=%s: the run's event stream failed", threadId(), runId());
            terminated();
        }, this::terminated);
    }

    /**
     * Numbers the event, queues it for the log and hands its frame to the starting connection, if still attached. The
     * event is serialized once, into its frame, which the log keeps as the entry (and its store writes from).
     * What the frame's fate is (sent, or the connection disconnected for falling behind) is decided under the
     * monitor; the frame is handed over after it, so that a slow socket never holds the monitor. The run calls this
     * one event at a time, so frames still reach the connection in the order of their numbers.
     */
    private void publish(AgUiEvent event) {
        long number = ++seq;
        byte[] frame = frames.frame(number, event);
        LoggedEvent logged = RunFrames.logged(number, frame);
        boolean last = event.endsRun();
        MultiEmitter<? super byte[]> to;
        boolean fellBehind;
        synchronized (this) {
            unsaved.add(logged);
            to = starter;
            sentBytes += frame.length;
            fellBehind = to != null
                    && window.exceeded(number - starterTook.get(), sentBytes - starterTookBytes.get());
            if (fellBehind || last) {
                starter = null; // it gets nothing more
            }
            if (last) {
                ended = true; // a client leaving from now on stops nothing
                terminal = event;
                endedAt = Instant.now();
            }
        }
        if (fellBehind) {
            LOG.infof("threadId=%s runId=%s: the client fell too far behind (%s); disconnecting it (the run goes "
                    + "on; it may resume from its cursor)", threadId(), runId(), window);
            to.fail(new FellBehind());
        } else if (to != null) {
            to.emit(frame);
            if (last) {
                to.complete();
            }
        }
        save();
    }

    private void terminated() {
        MultiEmitter<? super byte[]> to;
        synchronized (this) {
            ended = true;
            to = starter;
            starter = null;
        }
        if (to != null) {
            to.complete();
        }
        save();
    }

    /** Appends what is unsaved, one batch at a time; once the run ended and all is saved, lets it go. */
    private void save() {
        List<LoggedEvent> batch;
        synchronized (this) {
            if (saving || unsaved.isEmpty() && !ended) {
                return;
            }
            saving = true; // for good, when all is saved and the run ended: nothing follows
            batch = unsaved.isEmpty() ? null : List.copyOf(unsaved);
            unsaved.clear();
        }
        if (batch == null) {
            onSaved.accept(this);
        } else {
            log.append(key(), batch).subscribe().withSubscriber(new Appending(batch));
        }
    }

    /**
     * One append of a batch to the log. A subscriber rather than {@code subscribe().with} callbacks, which Mutiny
     * would wrap in context restores that nearly every event pays for (a batch is often one event).
     */
    private final class Appending implements UniSubscriber<Void> {

        private final List<LoggedEvent> batch;

        Appending(List<LoggedEvent> batch) {
            this.batch = batch;
        }

        @Override
        public void onSubscribe(UniSubscription subscription) {
            // an append runs to its end: the run's log must hold what clients were sent
        }

        @Override
        public void onItem(Void done) {
            APPENDS.succeeded();
            saved(true);
        }

        @Override
        public void onFailure(Throwable failure) {
            synchronized (LiveRun.this) {
                if (++failedSaves < MAX_FAILED_SAVES) {
                    unsaved.addAll(0, batch); // tried again with the next events
                }
            }
            APPENDS.failed(String.format("threadId=%s runId=%s: %d events, %s", threadId(), runId(), batch.size(),
                    failedSaves < MAX_FAILED_SAVES ? "trying again" : "left out"), failure);
            saved(false);
        }
    }

    private void saved(boolean succeeded) {
        synchronized (this) {
            saving = false;
            failedSaves = succeeded ? 0 : failedSaves % MAX_FAILED_SAVES;
        }
        save();
    }
}
