package dev.aguistate.store;

import io.smallrye.mutiny.Uni;
import java.util.function.Consumer;

/**
 * Signals about a thread's runs ({@link ThreadSignal}: stop a run, a thread freed for the runs waiting for it, stop a
 * waiting run, a message steered into a run), delivered to every replica, since any of them may be the one concerned
 * (Redis publish/subscribe, PostgreSQL {@code NOTIFY}, or within this process for the in-memory store). Delivery is
 * at most once: a replica that is not listening at that moment misses the signal, so each use has its own fallback
 * (a stop that finds the run still there is sent again by its client; a waiting run looks again every second; a
 * steered message that no run takes starts a run of its own).
 */
public interface ThreadSignals {

    /** Sends the signal to every replica, this one included. */
    Uni<Void> send(ThreadSignal signal);

    /** From now on, {@code listener} receives every signal any replica sends. */
    void listen(Consumer<ThreadSignal> listener);
}
