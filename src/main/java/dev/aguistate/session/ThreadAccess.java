package dev.aguistate.session;

import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadStore;
import dev.aguistate.store.ThreadSummary;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/**
 * Who may see a thread: only its owner (the same user of the same tenant). To anyone else it does not exist — the same answer as for a missing
 * thread — so thread ids leak nothing.
 */
@ApplicationScoped
public class ThreadAccess {

    private final ThreadStore store;

    ThreadAccess(ThreadStore store) {
        this.store = store;
    }

    /** The thread if it exists and {@code caller} may see it. */
    public Uni<Optional<StoredThread>> load(String threadId, Caller caller) {
        return store.load(threadId).onItem().transform(thread -> thread.filter(t -> visibleTo(t, caller)));
    }

    /** The caller's threads, most recently updated first. */
    public Uni<List<ThreadSummary>> list(Caller caller, int offset, int limit) {
        return store.list(caller.owner(), offset, limit);
    }

    /** Deletes the thread if {@code caller} may see it; false when there was no such thread for them. */
    public Uni<Boolean> delete(String threadId, Caller caller) {
        return load(threadId, caller).onItem().transformToUni(thread -> thread.isEmpty()
                ? Uni.createFrom().item(false)
                : store.delete(threadId));
    }

    /** The one answer to "may this user see this thread". */
    static boolean visibleTo(StoredThread thread, Caller caller) {
        return thread.owner().equals(caller.owner());
    }
}
