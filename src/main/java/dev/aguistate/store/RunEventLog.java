package dev.aguistate.store;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Each run's events, in order, readable by any replica while the run goes on and for {@code agui.run.events-ttl}
 * after it ended: what lets a client that lost its connection resume from its cursor, and a client on another
 * replica join a live run. A log is named by its run's {@code key} (the claim's token: a run id is the client's
 * choice and may repeat, a key never does). A log holds at most {@code agui.store.run-log.max-events}; older
 * entries go first, and a reader that finds a gap before what it asked for knows it. A log whose run never ended
 * goes {@code agui.store.run-log.idle-ttl} after its latest append.
 */
public interface RunEventLog {

    /**
     * The most entries one read asks for when a reader takes a log step by step (a follower, a join): so no read
     * holds a store's connection, or its caller's memory, for a whole log.
     */
    int PAGE = 1000;

    /**
     * Appends the run's next entries, in order; their {@code seq}s continue the log's without a gap. Entries whose
     * {@code seq} the log holds already are skipped, so an append retried after a timeout neither fails nor
     * duplicates.
     */
    Uni<Void> append(String key, List<LoggedEvent> entries);

    /** The run has ended: its log is removed {@code ttl} from now. */
    Uni<Void> expireAfter(String key, Duration ttl);

    /** Up to {@code max} entries with a {@code seq} above {@code afterSeq}, oldest first; empty for an unknown log. */
    Uni<List<LoggedEvent>> read(String key, long afterSeq, int max);

    /**
     * The entries above {@code afterSeq} that the log holds now, oldest first, a page of up to {@link #PAGE} at a
     * time, each read when the subscriber asks for it; completes after the last (an empty log: at once).
     */
    default Multi<List<LoggedEvent>> pages(String key, long afterSeq) {
        AtomicLong cursor = new AtomicLong(afterSeq);
        return Multi.createBy().repeating()
                .uni(() -> read(key, cursor.get(), PAGE).invoke(page -> {
                    if (!page.isEmpty()) {
                        cursor.set(page.get(page.size() - 1).seq());
                    }
                }))
                .whilst(page -> page.size() == PAGE)
                .select().where(page -> !page.isEmpty());
    }

    /**
     * The entries above {@code afterSeq}: those in the log now, then each as it is appended. Never completes by
     * itself (the reader cancels once it has seen the run's terminal event, or gives up on a run that was lost);
     * fails with {@link StoreUnavailable} when the store cannot be read.
     */
    Multi<LoggedEvent> follow(String key, long afterSeq);
}
