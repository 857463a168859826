package dev.aguistate.store;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Signals within this process: for the in-memory store, whose one replica runs every run; and, fed by a
 * subscription, the listeners of a replica for the shared stores.
 */
public final class LocalThreadSignals implements ThreadSignals {

    private static final Logger LOG = Logger.getLogger(LocalThreadSignals.class);

    private final List<Consumer<ThreadSignal>> listeners = new CopyOnWriteArrayList<>();

    @Override
    public Uni<Void> send(ThreadSignal signal) {
        return Uni.createFrom().item(() -> {
            deliver(signal);
            return null;
        });
    }

    @Override
    public void listen(Consumer<ThreadSignal> listener) {
        listeners.add(listener);
    }

    /** Hands the signal a text carries to every listener of this process; a text that carries none is logged. */
    public void deliver(String wire) {
        ThreadSignal.parse(wire).ifPresentOrElse(this::deliver,
                () -> LOG.warnf("ignored a signal that is none (%d characters): a replica of another version?",
                        wire.length()));
    }

    private void deliver(ThreadSignal signal) {
        listeners.forEach(listener -> listener.accept(signal));
    }
}
