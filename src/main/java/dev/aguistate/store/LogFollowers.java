package dev.aguistate.store;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The followers, in this process, of a store's logs that tells when a log grew: a follower reads what is new after
 * its cursor, and when there is nothing, tells the {@link Watch} where it waits and waits until its log's owner
 * {@link #wake}s it (the in-memory log after an append; the PostgreSQL log when a notification says another replica
 * appended; the Redis log when one of its shared blocking readers saw the stream grow). Where a wake-up can be
 * missed (a notification lost while the listening connection reconnects), {@code recheckEvery} bounds the delay: a
 * waiting follower reads again after that long anyway, which also makes a follower of an unreachable store fail
 * rather than wait for ever.
 *
 * <p>Pull-based: a follower reads its next batch only when its reader asked for more, so a slow reader holds a
 * cursor, not a buffer; entries that its log dropped meanwhile (its bound) show as a gap before the next one.
 */
public final class LogFollowers {

    /** Reads up to {@code max} entries above {@code afterSeq}. */
    public interface Reader {
        Uni<List<LoggedEvent>> read(long afterSeq, int max);
    }

    /** Whoever watches the logs for growth, where the owner does not see every append itself. */
    public interface Watch {

        /** Watches nothing: the owner wakes the followers itself. */
        Watch NONE = new Watch() {
            @Override
            public void waiting(String key, long afterSeq) {
            }

            @Override
            public void forgotten(String key) {
            }
        };

        /** A follower of the log {@code key} found nothing above {@code afterSeq} and waits for more. */
        void waiting(String key, long afterSeq);

        /** The log {@code key} has no followers in this process any more. */
        void forgotten(String key);
    }

    private final Optional<Duration> recheckEvery;
    private final Watch watch;
    private final ConcurrentHashMap<String, Set<Wakeup>> waiting = new ConcurrentHashMap<>();

    public LogFollowers(Optional<Duration> recheckEvery, Watch watch) {
        this.recheckEvery = recheckEvery;
        this.watch = watch;
    }

    /** The log {@code key}'s entries above {@code afterSeq}, read with {@code reader}; see {@link RunEventLog#follow}. */
    public Multi<LoggedEvent> follow(String key, long afterSeq, Reader reader) {
        return Multi.createFrom().deferred(() -> {
            Wakeup wakeup = new Wakeup();
            waiting.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(wakeup);
            long[] cursor = {afterSeq};
            return Multi.createBy().repeating().uni(() -> {
                        wakeup.clear(); // before the read: a wake-up during it is kept for the wait after it
                        return reader.read(cursor[0], RunEventLog.PAGE).chain(entries -> {
                            if (entries.isEmpty()) {
                                watch.waiting(key, cursor[0]);
                                return wakeup.await(recheckEvery).replaceWith(entries);
                            }
                            cursor[0] = entries.get(entries.size() - 1).seq();
                            return Uni.createFrom().item(entries);
                        });
                    })
                    .indefinitely()
                    .onItem().<LoggedEvent>disjoint()
                    .onTermination().invoke(() -> forget(key, wakeup));
        });
    }

    /** The log {@code key} grew: its followers read again. */
    public void wake(String key) {
        Set<Wakeup> followers = waiting.get(key);
        if (followers != null) {
            followers.forEach(Wakeup::signal);
        }
    }

    /** Every follower reads again: wake-ups may have been missed (a listening connection was down). */
    public void wakeAll() {
        waiting.values().forEach(followers -> followers.forEach(Wakeup::signal));
    }

    /** How many followers wait in this process. */
    public int count() {
        return waiting.values().stream().mapToInt(Set::size).sum();
    }

    /** The watch forgets the log before another follower of it can start: within the map's lock for the key. */
    private void forget(String key, Wakeup wakeup) {
        waiting.computeIfPresent(key, (k, followers) -> {
            followers.remove(wakeup);
            if (!followers.isEmpty()) {
                return followers;
            }
            watch.forgotten(key);
            return null;
        });
    }

    /** One follower's doorbell: rung at most once between two reads counts. */
    private static final class Wakeup {
        private boolean rung;
        private UniEmitter<? super Void> waiter;

        synchronized void clear() {
            rung = false;
        }

        void signal() {
            UniEmitter<? super Void> woken;
            synchronized (this) {
                woken = waiter;
                waiter = null;
                rung = woken == null;
            }
            if (woken != null) {
                woken.complete(null); // outside the lock: the follower reads its log from here
            }
        }

        Uni<Void> await(Optional<Duration> atMost) {
            Uni<Void> rang = Uni.createFrom().emitter(emitter -> {
                boolean now;
                synchronized (this) {
                    now = rung;
                    rung = false;
                    waiter = now ? null : emitter;
                }
                if (now) {
                    emitter.complete(null);
                }
                emitter.onTermination(() -> release(emitter));
            });
            return atMost.map(limit -> rang.ifNoItem().after(limit).recoverWithItem((Void) null)).orElse(rang);
        }

        private synchronized void release(UniEmitter<? super Void> emitter) {
            if (waiter == emitter) {
                waiter = null;
            }
        }
    }
}
