package dev.aguistate.store;

import io.smallrye.mutiny.Uni;
import java.util.function.Consumer;

/**
 * Requests to stop a run, delivered to every replica, since any of them may be the one running it (Redis
 * publish/subscribe, PostgreSQL {@code NOTIFY}, or within this process for the in-memory store). Delivery is at
 * most once: a replica that is not listening at that moment misses the request.
 */
public interface StopSignals {

    /** Asks the replica running the run with this claim key to stop it. */
    Uni<Void> send(String key);

    /** From now on, {@code onStop} receives the key of every run any replica asked to stop; called once at start. */
    void listen(Consumer<String> onStop);
}
