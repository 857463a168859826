package dev.aguistate.session;

import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadInfo;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.store.ThreadStore;
import dev.aguistate.store.ThreadSummary;
import dev.aguistate.store.ThreadsConfig;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Who may see a thread: only its owner (the same user of the same tenant). Threads are stored by owner, so another
 * user's thread of the same id is simply not the caller's: to them it does not exist, and thread ids leak nothing.
 * The owner is still checked on what the store returns.
 */
@ApplicationScoped
@Startup
public class ThreadAccess {

    /**
     * A page of a listing.
     *
     * @param next where the next page starts (a cursor), absent on the last page
     */
    public record ThreadPage(List<ThreadSummary> threads, OptionalInt next) {}

    /** A change of metadata that would make it larger than {@code agui.threads.max-metadata-bytes}: a 413. */
    public static final class MetadataTooLarge extends RuntimeException {

        MetadataTooLarge(long bytes, int maxBytes) {
            super("the thread's metadata would take " + bytes + " bytes of JSON; at most " + maxBytes
                    + " are allowed (agui.threads.max-metadata-bytes)", null, false, false);
        }
    }

    /** Threads read from the store per step while a listing filters them. */
    private static final int SCAN = 100;
    /** Saving info is a compare-and-set; this many tries before giving up on a thread changed that often. */
    private static final int UPDATE_TRIES = 8;

    private final ThreadStore store;
    private final RunClaims runs;
    private final ThreadsConfig config;

    ThreadAccess(ThreadStore store, RunClaims runs, ThreadsConfig config) {
        this.store = store;
        this.runs = runs;
        this.config = config;
    }

    /** The thread if it exists and {@code caller} may see it. */
    public Uni<Optional<StoredThread>> load(String threadId, Caller caller) {
        return store.load(caller.thread(threadId)).onItem().transform(thread -> thread.filter(t -> visibleTo(t, caller)));
    }

    /**
     * The next {@code limit} of the caller's threads that {@code filter} lets through, most recently updated first,
     * from {@code from} (0, or a page's {@link ThreadPage#next}). The store lists by owner; the filter reads what it
     * lists, {@value #SCAN} threads at a time.
     */
    public Uni<ThreadPage> list(Caller caller, ThreadFilter filter, int from, int limit) {
        return collect(caller.owner(), filter, from, limit, new ArrayList<>());
    }

    private Uni<ThreadPage> collect(String owner, ThreadFilter filter, int from, int limit,
                                    List<ThreadSummary> found) {
        return store.list(owner, from, SCAN).chain(batch -> {
            for (int i = 0; i < batch.size(); i++) {
                if (filter.matches(batch.get(i))) {
                    found.add(batch.get(i));
                    if (found.size() == limit) {
                        return Uni.createFrom().item(new ThreadPage(found, OptionalInt.of(from + i + 1)));
                    }
                }
            }
            return batch.size() < SCAN ? Uni.createFrom().item(new ThreadPage(found, OptionalInt.empty()))
                    : collect(owner, filter, from + SCAN, limit, found);
        });
    }

    /**
     * Changes the caller's thread's name, archived flag or metadata. A run in progress on the thread is not
     * disturbed and keeps the change when it commits; concurrent changes each apply in turn (the store saves info
     * only over what was read, and a change that finds it moved on reads it again).
     *
     * @return the thread as changed; empty when there is no such thread for them
     * @throws MetadataTooLarge (as the failure) past {@code agui.threads.max-metadata-bytes}
     */
    public Uni<Optional<StoredThread>> update(String threadId, Caller caller, ThreadUpdate update) {
        return update(caller.thread(threadId), caller, update, UPDATE_TRIES);
    }

    private Uni<Optional<StoredThread>> update(ThreadKey key, Caller caller, ThreadUpdate update, int tries) {
        return load(key.threadId(), caller).chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().item(found);
            }
            StoredThread thread = found.get();
            ThreadInfo changed = update.applyTo(thread.info());
            long bytes = AgUiJson.writeBytes(changed.metadata()).length;
            if (bytes > config.maxMetadataBytes()) {
                return Uni.createFrom().failure(new MetadataTooLarge(bytes, config.maxMetadataBytes()));
            }
            return store.saveInfo(key, thread.info(), changed).chain(saved -> saved
                    ? Uni.createFrom().item(Optional.of(thread.described(changed)))
                    : tries > 1 ? update(key, caller, update, tries - 1)
                    : Uni.createFrom().failure(new IllegalStateException("thread " + key.threadId()
                            + "'s info changed " + UPDATE_TRIES + " times while it was being changed")));
        });
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
