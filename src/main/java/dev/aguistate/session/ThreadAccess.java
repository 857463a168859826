package dev.aguistate.session;

import dev.aguistate.threads.StoredThread;
import dev.aguistate.threads.ThreadStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Who may see a thread: only its owner. To anyone else it does not exist — the same answer as for a missing
 * thread — so thread ids leak nothing.
 */
@ApplicationScoped
public class ThreadAccess {

    private final ThreadStore store;

    ThreadAccess(ThreadStore store) {
        this.store = store;
    }

    /** The thread if it exists and {@code user} may see it. */
    public Uni<Optional<StoredThread>> load(String threadId, String user) {
        return store.load(threadId).onItem().transform(thread -> thread.filter(t -> visibleTo(t, user)));
    }

    /** Deletes the thread if {@code user} may see it; false when there was no such thread for them. */
    public Uni<Boolean> delete(String threadId, String user) {
        return load(threadId, user).onItem().transformToUni(thread -> thread.isEmpty()
                ? Uni.createFrom().item(false)
                : store.delete(threadId));
    }

    /** The one answer to "may this user see this thread". */
    static boolean visibleTo(StoredThread thread, String user) {
        return thread.owner().equals(user);
    }
}
