package dev.aguistate.store.memory;

import dev.aguistate.store.LogFollowers;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.EmptyUniSubscription;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Run event logs for the in-memory store: one replica, in this process. A follower is woken by the append itself,
 * never by polling.
 *
 * <p>Bounded twice: each log by {@code maxEvents} (its oldest entries go first), and all logs together by
 * {@code maxBytes}, counting an entry as {@link #ENTRY_OVERHEAD} bytes plus the bytes of the frame it is kept as, or
 * two per character of its JSON (a Java string takes one or two per character). An append that would go over the bytes
 * takes room first from the logs of runs that ended ({@link #expireAfter} was called), those that ended first going
 * first, then from its own log's oldest entries, down to none: a run never takes room from another live run, and it
 * never fails for lack of room. Its followers still get every entry they are awaiting unless they lag behind what was
 * dropped; a reader finds the gap (its next entry's {@code seq} is above the one it asked after). A log is removed
 * {@code idleTtl} after its latest append, or when the time the latest {@link #expireAfter} gave it is up
 * ({@link #evictExpired()} frees the memory periodically; an expired log reads as empty at once).
 *
 * <p>An entry whose {@code seq} is not above the log's latest is skipped, so an append that is repeated changes
 * nothing. One lock guards everything.
 */
public final class InMemoryRunEventLog implements RunEventLog {

    /** The entry's record, its string's header, its slot in the list: what an entry takes beyond its text. */
    static final int ENTRY_OVERHEAD = 64;

    /** One run's entries, oldest first from {@code head}; those before it were dropped. */
    private static final class Log {
        final ArrayList<LoggedEvent> entries = new ArrayList<>();
        int head;
        long bytes;
        /** In the clock's epoch milliseconds: an {@code Instant} per append was a share of each event's garbage. */
        long expiresAt;

        int size() {
            return entries.size() - head;
        }

        long lastSeq() {
            return size() == 0 ? -1 : entries.get(entries.size() - 1).seq();
        }

        long dropOldest() {
            long dropped = bytes(entries.set(head++, null));
            bytes -= dropped;
            if (head > entries.size() / 2) { // compacts in amortized constant time per entry
                entries.subList(0, head).clear();
                head = 0;
            }
            return dropped;
        }

        /** The index of the first entry above {@code afterSeq}. */
        int firstAbove(long afterSeq) {
            int low = head;
            int high = entries.size();
            while (low < high) {
                int middle = (low + high) >>> 1;
                if (entries.get(middle).seq() <= afterSeq) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            return low;
        }
    }

    private final Clock clock;
    private final long idleTtlMs;
    private final int maxEvents;
    private final long maxBytes;
    private final Map<String, Log> logs = new HashMap<>();
    /** The keys of logs whose run ended, in that order: the first makes room first. */
    private final LinkedHashSet<String> ended = new LinkedHashSet<>();
    private long heldBytes;
    private final LogFollowers followers = new LogFollowers(Optional.empty(), LogFollowers.Watch.NONE);

    public InMemoryRunEventLog(Clock clock, Duration idleTtl, int maxEvents, long maxBytes) {
        this.clock = clock;
        this.idleTtlMs = idleTtl.toMillis();
        this.maxEvents = maxEvents;
        this.maxBytes = maxBytes;
    }

    static long bytes(LoggedEvent entry) {
        byte[] frame = entry.frame();
        return ENTRY_OVERHEAD + (frame != null ? frame.length : 2L * entry.json().length());
    }

    @Override
    public Uni<Void> append(String key, List<LoggedEvent> entries) {
        return new Appending(key, entries);
    }

    /**
     * An append, made when subscribed. Not {@code Uni.createFrom().item(supplier)}: Quarkus's context propagation
     * captures a context for each such supplier and restores it around the call, and a run appends about once per
     * event (what that allocated under load: docs/benchmarks.md, "Ours against a bare SSE writer").
     */
    private final class Appending extends AbstractUni<Void> {

        private final String key;
        private final List<LoggedEvent> entries;

        Appending(String key, List<LoggedEvent> entries) {
            this.key = key;
            this.entries = entries;
        }

        @Override
        public void subscribe(UniSubscriber<? super Void> subscriber) {
            subscriber.onSubscribe(EmptyUniSubscription.DONE);
            try {
                appendNow(key, entries);
                followers.wake(key);
            } catch (RuntimeException e) {
                subscriber.onFailure(e);
                return;
            }
            subscriber.onItem(null);
        }
    }

    private synchronized void appendNow(String key, List<LoggedEvent> entries) {
        Log log = live(key);
        if (log == null) {
            log = new Log();
            logs.put(key, log);
        }
        for (LoggedEvent entry : entries) {
            if (entry.seq() > log.lastSeq()) {
                long bytes = bytes(entry);
                log.entries.add(entry);
                log.bytes += bytes;
                heldBytes += bytes;
            }
        }
        while (log.size() > maxEvents) {
            heldBytes -= log.dropOldest();
        }
        log.expiresAt = clock.millis() + idleTtlMs;
        makeRoom(key, log);
    }

    private void makeRoom(String key, Log appended) {
        if (heldBytes <= maxBytes) {
            return; // as nearly always: not even an iterator
        }
        Iterator<String> endedFirst = ended.iterator();
        while (heldBytes > maxBytes && endedFirst.hasNext()) {
            String oldest = endedFirst.next();
            if (!oldest.equals(key)) {
                endedFirst.remove();
                heldBytes -= logs.remove(oldest).bytes;
            }
        }
        while (heldBytes > maxBytes && appended.size() > 0) {
            heldBytes -= appended.dropOldest();
        }
    }

    @Override
    public Uni<Void> expireAfter(String key, Duration ttl) {
        return Uni.createFrom().item(() -> {
            expireNow(key, ttl);
            return null;
        });
    }

    private synchronized void expireNow(String key, Duration ttl) {
        Log log = live(key);
        if (log != null) {
            log.expiresAt = clock.millis() + ttl.toMillis();
            ended.add(key);
        }
    }

    @Override
    public Uni<List<LoggedEvent>> read(String key, long afterSeq, int max) {
        return Uni.createFrom().item(() -> readNow(key, afterSeq, max));
    }

    private synchronized List<LoggedEvent> readNow(String key, long afterSeq, int max) {
        Log log = live(key);
        if (log == null) {
            return List.of();
        }
        int from = log.firstAbove(afterSeq);
        return List.copyOf(log.entries.subList(from, Math.min(log.entries.size(), from + max)));
    }

    @Override
    public Multi<LoggedEvent> follow(String key, long afterSeq) {
        return followers.follow(key, afterSeq, (after, max) -> read(key, after, max));
    }

    /** Removes expired logs; returns how many went. Runs periodically. */
    public synchronized int evictExpired() {
        long now = clock.millis();
        int before = logs.size();
        logs.entrySet().removeIf(entry -> {
            boolean expired = entry.getValue().expiresAt <= now;
            if (expired) {
                heldBytes -= entry.getValue().bytes;
                ended.remove(entry.getKey());
            }
            return expired;
        });
        return before - logs.size();
    }

    /** The bytes all logs take, as they are counted against the budget. */
    synchronized long heldBytes() {
        return heldBytes;
    }

    private Log live(String key) {
        Log log = logs.get(key);
        if (log != null && log.expiresAt <= clock.millis()) {
            logs.remove(key);
            ended.remove(key);
            heldBytes -= log.bytes;
            return null;
        }
        return log;
    }
}
