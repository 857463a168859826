package dev.aguistate.run;

import io.smallrye.mutiny.subscription.Cancellable;
import java.util.function.Consumer;

/**
 * Stops one run from outside the run loop: a stop request (the stop endpoint, on any replica), the client leaving
 * when that stops its run, or the run's time limit. The first reason counts; later ones change nothing.
 *
 * <p>Plain state with one listener, the run loop, rather than a future it subscribes to: leaving a Mutiny
 * subscription to a future cancels the future, which made an exception with a stack trace at the end of every run.
 */
public final class StopSwitch {

    /** Why a run was stopped: how it ends follows from it. */
    public enum Reason {
        /** Asked to stop, or its client left: it finishes {@code cancelled}. */
        REQUESTED,
        /** It ran for {@code agui.run.max-duration}: it fails with {@code max_duration_exceeded}. */
        TIME_LIMIT
    }

    private Reason reason;
    private Consumer<Reason> listener;

    public void stop(Reason stopReason) {
        Consumer<Reason> notified;
        synchronized (this) {
            if (reason != null) {
                return;
            }
            reason = stopReason;
            notified = listener;
            listener = null;
        }
        if (notified != null) {
            notified.accept(stopReason);
        }
    }

    /**
     * Calls {@code onStop} once the switch is stopped, at once if it already is, on the stopping thread; the answer
     * stops listening. One listener at a time.
     */
    Cancellable listen(Consumer<Reason> onStop) {
        Reason already;
        synchronized (this) {
            already = reason;
            if (already == null) {
                listener = onStop;
            }
        }
        if (already != null) {
            onStop.accept(already);
        }
        return () -> {
            synchronized (this) {
                if (listener == onStop) {
                    listener = null;
                }
            }
        };
    }
}
