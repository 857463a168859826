package dev.aguistate.run;

import dev.aguistate.mutiny.DirectSubscriber;
import dev.aguistate.protocol.AgUiEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.MultiEmitter;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A run's events on their way out, and a stop that may cut in from another thread. Whichever comes first wins: a
 * stop that wins cancels the work and ends the run its own way ({@code ending}), and nothing of the work follows;
 * a stop that comes after the work's terminal event changes nothing.
 *
 * <p>Nothing is passed on under a lock (the downstream may write to a socket): who may pass what is decided by one
 * atomic state, and the passing happens after the decision. A stop that comes while a work event is being passed on
 * does not wait for it: it leaves itself to the thread passing the event, which carries it out as soon as the
 * event is out. So the stop's events always follow the last work event passed on, and only one thread passes
 * events at a time.
 */
final class StoppableEvents {

    /** Work events may be passed on. */
    private static final int OPEN = 0;
    /** A work event is being passed on. */
    private static final int PASSING = 1;
    /** A work event is being passed on, and a stop waits for it: the passing thread carries the stop out. */
    private static final int STOP_WAITING = 2;
    /** A stop won: nothing more of the work goes out. */
    private static final int STOPPED = 3;
    /** The work's terminal event went out (or the work ended): a stop changes nothing. */
    private static final int ENDED = 4;

    private final MultiEmitter<? super AgUiEvent> emitter;
    private final RunMetrics metrics;
    private final Function<StopSwitch.Reason, Uni<List<AgUiEvent>>> ending;
    private final AtomicInteger state = new AtomicInteger(OPEN);
    /** Set before the state says STOP_WAITING, read after. */
    private volatile StopSwitch.Reason waitingStop;
    private volatile Cancellable working;

    /** @param ending the events that end a run stopped for a reason, once the run has recorded how it ended */
    StoppableEvents(MultiEmitter<? super AgUiEvent> emitter, RunMetrics metrics,
                    Function<StopSwitch.Reason, Uni<List<AgUiEvent>>> ending) {
        this.emitter = emitter;
        this.metrics = metrics;
        this.ending = ending;
    }

    /** Passes the work's events on until it ends or a stop wins; call before the first {@link #stop}. */
    void follow(Multi<AgUiEvent> work) {
        working = DirectSubscriber.subscribe(work, this::pass, failure -> workEnded(() -> emitter.fail(failure)),
                () -> workEnded(emitter::complete));
    }

    /** Cancels the work, if it still runs. */
    void cancelWork() {
        working.cancel();
    }

    private void pass(AgUiEvent event) {
        boolean last = event.endsRun();
        if (!state.compareAndSet(OPEN, last ? ENDED : PASSING)) {
            return; // a stop won
        }
        metrics.event(event);
        emitter.emit(event);
        if (!last && !state.compareAndSet(PASSING, OPEN)) {
            state.set(STOPPED); // a stop came while the event went out: it goes on from here
            end(waitingStop);
        }
    }

    private void workEnded(Runnable signal) {
        if (state.compareAndSet(OPEN, ENDED) || state.get() == ENDED) {
            signal.run();
        }
    }

    /** Stops the run, unless it ended by itself or was stopped already. */
    void stop(StopSwitch.Reason reason) {
        waitingStop = reason;
        while (true) {
            int now = state.get();
            if (now == OPEN && state.compareAndSet(OPEN, STOPPED)) {
                end(reason);
                return;
            }
            if (now == PASSING && state.compareAndSet(PASSING, STOP_WAITING)) {
                return; // the thread passing an event on carries the stop out once it is out
            }
            if (now != OPEN && now != PASSING) {
                return;
            }
        }
    }

    /** Cancels what is in flight; then the stopped run's own last events, and the end of the stream. */
    private void end(StopSwitch.Reason reason) {
        working.cancel();
        ending.apply(reason).subscribe().with(last -> {
            last.forEach(event -> {
                metrics.event(event);
                emitter.emit(event);
            });
            emitter.complete();
        }, emitter::fail);
    }
}
