package dev.aguistate.session;

import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadStore;
import dev.aguistate.store.ThreadSummary;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/**
 * Who may see a thread: only its owner (the same user of the same tenant). Threads are stored by owner, so another
 * user's thread of the same id is simply not the caller's: to them it does not exist, and thread ids leak nothing.
 * The owner is still checked on what the store returns.
 */
@ApplicationScoped
@Startup
public class ThreadAccess {

    private final ThreadStore store;
    private final RunClaims runs;

    ThreadAccess(ThreadStore store, RunClaims runs) {
        this.store = store;
        this.runs = runs;
    }

    /** The thread if it exists and {@code caller} may see it. */
    public Uni<Optional<StoredThread>> load(String threadId, Caller caller) {
        return store.load(caller.thread(threadId)).onItem().transform(thread -> thread.filter(t -> visibleTo(t, caller)));
    }

    /** The caller's threads, most recently updated first. */
    public Uni<List<ThreadSummary>> list(Caller caller, int offset, int limit) {
        return store.list(caller.owner(), offset, limit);
    }

    /**
     * Deletes the caller's thread, stopping its live run first: the run ends {@code cancelled} for every connection,
     * with what it completed kept until the thread goes with it, and cannot write the thread back.
     *
     * @return false when there was no such thread for them (a live run of a thread not stored yet is stopped too)
     */
    public Uni<Boolean> delete(String threadId, Caller caller) {
        return runs.stopAndAwait(caller, threadId).chain(() -> load(threadId, caller))
                .chain(thread -> thread.isEmpty() ? Uni.createFrom().item(false)
                        : store.delete(caller.thread(threadId)));
    }

    /** The one answer to "may this user see this thread". */
    static boolean visibleTo(StoredThread thread, Caller caller) {
        return thread.owner().equals(caller.owner());
    }
}
