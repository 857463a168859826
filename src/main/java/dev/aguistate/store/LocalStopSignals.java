package dev.aguistate.store;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Stop requests within this process: for the in-memory store, whose one replica runs every run; and, fed by a
 * subscription, the listeners of a replica for the shared stores.
 */
public final class LocalStopSignals implements StopSignals {

    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

    @Override
    public Uni<Void> send(String key) {
        return Uni.createFrom().item(() -> {
            deliver(key);
            return null;
        });
    }

    @Override
    public void listen(Consumer<String> onStop) {
        listeners.add(onStop);
    }

    /** Hands {@code key} to every listener of this process. */
    public void deliver(String key) {
        listeners.forEach(listener -> listener.accept(key));
    }
}
