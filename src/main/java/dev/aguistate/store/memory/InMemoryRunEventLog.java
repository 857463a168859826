package dev.aguistate.store.memory;

import dev.aguistate.store.LogFollowers;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.EmptyUniSubscription;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
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
 * {@code maxBytes}, counting an entry as {@link #ENTRY_OVERHEAD} bytes plus the bytes of the frame it came as, or of
 * its JSON's UTF-8 for one that holds text. The log keeps a copy of those bytes, and a reader gets a copy of them
 * back. An append that would go over the bytes takes room first from the logs of runs that ended
 * ({@link #expireAfter} was called), those that ended first going first, then from its own log's oldest entries, down
 * to none: a run never takes room from another live run, and it never fails for lack of room. Its followers still get
 * every entry they are awaiting unless they lag behind what was dropped; a reader finds the gap (its next entry's
 * {@code seq} is above the one it asked after). A log is removed {@code idleTtl} after its latest append, or when the
 * time the latest {@link #expireAfter} gave it is up ({@link #evictExpired()} frees the memory periodically; an
 * expired log reads as empty at once).
 *
 * <p>An entry whose {@code seq} is not above the log's latest is skipped, so an append that is repeated changes
 * nothing. One lock guards everything.
 */
public final class InMemoryRunEventLog implements RunEventLog {

    /** An entry's number and offsets in its log's arrays, with room to grow: what it takes beyond its bytes. */
    static final int ENTRY_OVERHEAD = 32;

    /**
     * One run's entries, oldest first from {@code head}; those before it were dropped. Kept in primitive arrays: an
     * entry's bytes (its frame, or its JSON's UTF-8 for an entry that holds text) back to back in {@code data}, its
     * number and offsets in index arrays. A list of entries held two objects per event for the collector to copy and
     * mark; the arrays hold the same in a quarter less heap (docs/benchmarks.md, "A run's log in arrays").
     */
    private static final class Log {
        private byte[] data = new byte[1024];
        private long[] seqs = new long[16];
        /** Where each entry's bytes end in {@code data}; it starts where the one before it ends, or at 0. */
        private int[] ends = new int[16];
        /** Where its JSON starts and ends in its bytes; -1 for an entry that holds text (then its bytes are JSON). */
        private int[] jsonFroms = new int[16];
        private int[] jsonTos = new int[16];
        private int head;
        private int count;
        long bytes;
        /** In the clock's epoch milliseconds: an {@code Instant} per append was a share of each event's garbage. */
        long expiresAt;

        int size() {
            return count - head;
        }

        long lastSeq() {
            return size() == 0 ? -1 : seqs[count - 1];
        }

        /** Appends the entry; returns the bytes it is counted as. */
        long add(LoggedEvent entry) {
            byte[] frame = entry.frame();
            byte[] kept = kept(entry);
            if (count == seqs.length) {
                int capacity = Math.max(16, count * 2); // a trimmed log may be empty
                seqs = Arrays.copyOf(seqs, capacity);
                ends = Arrays.copyOf(ends, capacity);
                jsonFroms = Arrays.copyOf(jsonFroms, capacity);
                jsonTos = Arrays.copyOf(jsonTos, capacity);
            }
            int from = start(count);
            if (from + kept.length > data.length) {
                data = Arrays.copyOf(data, Math.max(data.length * 2, from + kept.length));
            }
            System.arraycopy(kept, 0, data, from, kept.length);
            seqs[count] = entry.seq();
            ends[count] = from + kept.length;
            jsonFroms[count] = frame != null ? entry.jsonFrom() : -1;
            jsonTos[count] = frame != null ? entry.jsonTo() : -1;
            count++;
            long counted = counted(kept.length);
            bytes += counted;
            return counted;
        }

        /** Entry {@code index} as an entry again: a frame of its own (a copy), or its text. */
        LoggedEvent get(int index) {
            int from = start(index);
            if (jsonFroms[index] < 0) {
                return new LoggedEvent(seqs[index], new String(data, from, ends[index] - from, StandardCharsets.UTF_8));
            }
            return LoggedEvent.inFrame(seqs[index], Arrays.copyOfRange(data, from, ends[index]), jsonFroms[index],
                    jsonTos[index]);
        }

        long dropOldest() {
            long dropped = counted(ends[head] - start(head));
            head++;
            bytes -= dropped;
            if (head > count / 2) { // compacts in amortized constant time per entry
                moveToFront();
            }
            return dropped;
        }

        /**
         * Lets go of the arrays' room to grow and of the dropped entries: for a run that ended, whose log takes no more
         * entries and is kept for readers until it expires (its arrays, grown by doubling, were up to half empty).
         */
        void trim() {
            moveToFront();
            data = Arrays.copyOf(data, start(count));
            seqs = Arrays.copyOf(seqs, count);
            ends = Arrays.copyOf(ends, count);
            jsonFroms = Arrays.copyOf(jsonFroms, count);
            jsonTos = Arrays.copyOf(jsonTos, count);
        }

        /** Moves the entries from {@code head} on to the arrays' start, over the dropped ones. */
        private void moveToFront() {
            if (head == 0) {
                return;
            }
            int kept = size();
            int byteFrom = start(head);
            System.arraycopy(data, byteFrom, data, 0, start(count) - byteFrom);
            System.arraycopy(seqs, head, seqs, 0, kept);
            System.arraycopy(ends, head, ends, 0, kept);
            System.arraycopy(jsonFroms, head, jsonFroms, 0, kept);
            System.arraycopy(jsonTos, head, jsonTos, 0, kept);
            for (int i = 0; i < kept; i++) {
                ends[i] -= byteFrom;
            }
            head = 0;
            count = kept;
        }

        /** The index of the first entry above {@code afterSeq}. */
        int firstAbove(long afterSeq) {
            int low = head;
            int high = count;
            while (low < high) {
                int middle = (low + high) >>> 1;
                if (seqs[middle] <= afterSeq) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            return low;
        }

        private int start(int index) {
            return index == 0 ? 0 : ends[index - 1];
        }
    }

    /** The bytes an entry is counted as against the budget. */
    static long bytes(LoggedEvent entry) {
        return counted(kept(entry).length);
    }

    private static long counted(int keptBytes) {
        return ENTRY_OVERHEAD + keptBytes;
    }

    /** What the log keeps of an entry: its frame, or its JSON's UTF-8. */
    private static byte[] kept(LoggedEvent entry) {
        byte[] frame = entry.frame();
        return frame != null ? frame : entry.json().getBytes(StandardCharsets.UTF_8);
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
                heldBytes += log.add(entry);
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
            if (ended.add(key)) {
                log.trim();
            }
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
        int to = (int) Math.min(log.count, (long) from + max);
        List<LoggedEvent> read = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            read.add(log.get(i));
        }
        return read;
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
