package dev.aguistate.store.memory;

import dev.aguistate.store.RunLock;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadBackend;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.store.ThreadStoreContract;
import dev.aguistate.store.ThreadTooLarge;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.protocol.Message;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

@Execution(ExecutionMode.CONCURRENT)
class InMemoryThreadStoreTest extends ThreadStoreContract {

    /** A clock the test moves by hand, so expiry is tested without waiting. */
    private static final class ManualClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }
    }

    private static final Duration TTL = Duration.ofHours(1);
    /** A byte budget for the budget tests, with threads of about 0.4 of it: two fit, not three. */
    private static final long BUDGET = 10_000;
    private static final int A_FIFTH_OF_THE_BUDGET = 2_000;

    private final ManualClock clock = new ManualClock();
    private final InMemoryThreadStore store = new InMemoryThreadStore(clock, TTL, 100, 100L * MAX_THREAD_BYTES,
            MAX_THREAD_BYTES);

    @Override
    protected ThreadBackend store() {
        return store;
    }

    /**
     * A listing reads only its owner's threads: with 100,000 threads of other users stored, a thousand listings of one
     * user's three threads take no longer than a listing scan of a few thousand entries would. (Scanning every thread
     * under the store's lock, as listings did, took seconds for them, and held every other call back meanwhile.)
     */
    @Test
    void listingOneUsersThreadsDoesNotReadEveryOtherUsersThreads() {
        InMemoryThreadStore crowded = new InMemoryThreadStore(clock, TTL, 200_000, Long.MAX_VALUE / 2, MAX_THREAD_BYTES);
        for (int i = 0; i < 100_000; i++) {
            commitAs(crowded, "other-" + (i % 1000), "t-" + i);
        }
        for (int i = 0; i < 3; i++) {
            commitAs(crowded, "me", "mine-" + i);
        }

        long started = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
            assertEquals(3, crowded.list("me", 0, 20).await().indefinitely().size());
        }
        long millis = (System.nanoTime() - started) / 1_000_000;

        assertTrue(millis < 200, "1000 listings took " + millis + " ms");
        assertEquals(List.of("mine-2", "mine-1", "mine-0"), crowded.list("me", 0, 20).await().indefinitely()
                .stream().map(dev.aguistate.store.ThreadSummary::threadId).toList(), "newest first");
    }

    private void commitAs(InMemoryThreadStore target, String owner, String threadId) {
        clock.advance(Duration.ofMillis(1));
        target.commit(new ThreadCommit(new StoredThread(threadId, owner, "agent-x",
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(), List.of(),
                dev.aguistate.store.ThreadMeta.EMPTY, 0, Instant.EPOCH, Instant.EPOCH), 0, List.of()))
                .await().indefinitely();
    }

    @Test
    void aThreadExpiresAfterItsTtlUnlessItIsUsed() {
        ThreadKey used = newId();
        ThreadKey idle = newId();
        commit(thread(used, json("{}"), List.of()), 0);
        commit(thread(idle, json("{}"), List.of()), 0);

        clock.advance(Duration.ofMinutes(50));
        assertTrue(store.load(used).await().indefinitely().isPresent(), "reading refreshes the TTL");
        clock.advance(Duration.ofMinutes(20));

        assertTrue(store.load(idle).await().indefinitely().isEmpty(), "expired threads are invisible at once");
        assertTrue(store.load(used).await().indefinitely().isPresent());
        assertEquals(1, store.evictExpired(), "the periodic clean-up frees the memory");
    }

    @Test
    void aFullStoreMakesRoomByDroppingTheLeastRecentlyUsedThread() {
        InMemoryThreadStore small = new InMemoryThreadStore(clock, TTL, 2, BUDGET, MAX_THREAD_BYTES);
        ThreadKey a = newId();
        ThreadKey b = newId();
        ThreadKey c = newId();
        small.commit(new ThreadCommit(thread(a, json("{}"), List.of()), 0, List.of())).await().indefinitely();
        small.commit(new ThreadCommit(thread(b, json("{}"), List.of()), 0, List.of())).await().indefinitely();
        small.load(a).await().indefinitely();

        small.commit(new ThreadCommit(thread(c, json("{}"), List.of()), 0, List.of())).await().indefinitely();

        assertTrue(small.load(b).await().indefinitely().isEmpty(), "b was the least recently used");
        assertTrue(small.load(a).await().indefinitely().isPresent());
        assertTrue(small.load(c).await().indefinitely().isPresent());
    }

    @Test
    void aThreadARunHoldsIsNotDroppedToMakeRoomSoTheRunCanCommit() {
        InMemoryThreadStore small = new InMemoryThreadStore(clock, TTL, 2, BUDGET, MAX_THREAD_BYTES);
        ThreadKey held = newId();
        ThreadKey b = newId();
        ThreadKey c = newId();
        RunLock lock = small.tryLock(held, "run-1", Duration.ofMinutes(5)).await().indefinitely().orElseThrow();
        commit(small, held, 1, 0);
        commit(small, b, 1, 0);

        commit(small, c, 1, 0);

        assertTrue(small.load(b).await().indefinitely().isEmpty(), "b made room, though held was used less recently");
        assertEquals(2, commit(small, held, 2, 1).version(), "the run's second commit finds its thread");

        small.unlock(lock).await().indefinitely();
        ThreadKey d = newId();
        commit(small, d, 1, 0);
        assertTrue(small.load(c).await().indefinitely().isEmpty(), "released, held is used again; c is the oldest");
        assertTrue(small.load(held).await().indefinitely().isPresent());
    }

    @Test
    void aStoreWhoseThreadsAreAllHeldGoesOverItsBoundRatherThanFailAHeldRun() {
        InMemoryThreadStore small = new InMemoryThreadStore(clock, TTL, 1, BUDGET, MAX_THREAD_BYTES);
        ThreadKey a = newId();
        ThreadKey b = newId();
        small.tryLock(a, "run-a", Duration.ofSeconds(30)).await().indefinitely().orElseThrow();
        small.tryLock(b, "run-b", Duration.ofSeconds(30)).await().indefinitely().orElseThrow();
        commit(small, a, 1, 0);
        commit(small, b, 1, 0);

        assertTrue(small.load(a).await().indefinitely().isPresent());
        assertTrue(small.load(b).await().indefinitely().isPresent());

        clock.advance(Duration.ofSeconds(31));
        ThreadKey c = newId();
        commit(small, c, 1, 0);
        assertTrue(small.load(a).await().indefinitely().isEmpty(), "a lapsed claim holds nothing");
        assertTrue(small.load(b).await().indefinitely().isEmpty());
    }

    @Test
    void theThreadsTogetherStayWithinTheByteBudgetTheLeastRecentlyUsedMakingRoom() {
        InMemoryThreadStore budgeted = new InMemoryThreadStore(clock, TTL, 100, BUDGET, MAX_THREAD_BYTES);
        ThreadKey a = newId();
        ThreadKey b = newId();
        ThreadKey c = newId();
        commit(budgeted, a, 2 * A_FIFTH_OF_THE_BUDGET, 0);
        commit(budgeted, b, 2 * A_FIFTH_OF_THE_BUDGET, 0);
        budgeted.load(a).await().indefinitely();

        commit(budgeted, c, 2 * A_FIFTH_OF_THE_BUDGET, 0);

        assertTrue(budgeted.load(b).await().indefinitely().isEmpty(), "b was the least recently used");
        assertTrue(budgeted.load(a).await().indefinitely().isPresent());
        assertTrue(budgeted.load(c).await().indefinitely().isPresent());

        commit(budgeted, a, 3 * A_FIFTH_OF_THE_BUDGET, 1);

        assertTrue(budgeted.load(c).await().indefinitely().isEmpty(), "a grew: c made room, not a itself");
        assertEquals(2, budgeted.load(a).await().indefinitely().orElseThrow().version());
    }

    @Test
    void deletedAndExpiredThreadsGiveTheirBytesBack() {
        InMemoryThreadStore budgeted = new InMemoryThreadStore(clock, TTL, 100, BUDGET, MAX_THREAD_BYTES);
        ThreadKey a = newId();
        ThreadKey b = newId();
        commit(budgeted, a, 2 * A_FIFTH_OF_THE_BUDGET, 0);
        commit(budgeted, b, 2 * A_FIFTH_OF_THE_BUDGET, 0);
        budgeted.delete(a).await().indefinitely();

        commit(budgeted, newId(), 2 * A_FIFTH_OF_THE_BUDGET, 0);

        assertTrue(budgeted.load(b).await().indefinitely().isPresent(), "a's bytes were given back");
        clock.advance(TTL.plusSeconds(1));
        assertEquals(2, budgeted.evictExpired());
        ThreadKey d = newId();
        commit(budgeted, d, 2 * A_FIFTH_OF_THE_BUDGET, 0);
        commit(budgeted, newId(), 2 * A_FIFTH_OF_THE_BUDGET, 0);
        assertTrue(budgeted.load(d).await().indefinitely().isPresent(), "the expired threads' bytes were given back");
    }

    @Test
    void aThreadLargerThanTheWholeBudgetIsRefusedAndTheOthersStay() {
        InMemoryThreadStore budgeted = new InMemoryThreadStore(clock, TTL, 100, BUDGET, MAX_THREAD_BYTES);
        ThreadKey kept = newId();
        commit(budgeted, kept, 2 * A_FIFTH_OF_THE_BUDGET, 0);

        Throwable tooLarge = assertThrows(RuntimeException.class,
                () -> commit(budgeted, newId(), 6 * A_FIFTH_OF_THE_BUDGET, 0));

        assertInstanceOf(ThreadTooLarge.class, tooLarge);
        assertTrue(budgeted.load(kept).await().indefinitely().isPresent());
    }

    @Test
    void eachLoadReadsAFreshCopySoACallerCannotChangeTheStoredThread() {
        ThreadKey id = newId();
        commit(thread(id, json("{\"v\":1}"), List.of()), 0);

        store.load(id).await().indefinitely().orElseThrow().state().put("v", 2);

        assertEquals(json("{\"v\":1}"), store.load(id).await().indefinitely().orElseThrow().state());
    }

    @Test
    void aClaimLapsesSoACrashedRunCannotBlockTheThread() {
        ThreadKey id = newId();
        store.tryLock(id, "run-1", Duration.ofSeconds(30)).await().indefinitely().orElseThrow();

        clock.advance(Duration.ofSeconds(31));

        assertTrue(store.tryLock(id, "run-1", Duration.ofSeconds(30)).await().indefinitely().isPresent());
    }

    @Test
    void aRenewedClaimLastsItsNewTimeToLiveAndALapsedOneCannotBeRenewed() {
        ThreadKey id = newId();
        RunLock lock = store.tryLock(id, "run-1", Duration.ofSeconds(30)).await().indefinitely().orElseThrow();

        clock.advance(Duration.ofSeconds(20));
        assertTrue(store.renew(lock, Duration.ofSeconds(30)).await().indefinitely());
        clock.advance(Duration.ofSeconds(20));
        assertTrue(store.tryLock(id, "run-1", Duration.ofSeconds(30)).await().indefinitely().isEmpty(), "held 40 s in");

        clock.advance(Duration.ofSeconds(11));
        assertFalse(store.renew(lock, Duration.ofSeconds(30)).await().indefinitely(), "lapsed");
        assertTrue(store.tryLock(id, "run-1", Duration.ofSeconds(30)).await().indefinitely().isPresent());
    }

    /** Commits a thread whose one message is {@code chars} characters of ASCII text. */
    private StoredThread commit(InMemoryThreadStore to, ThreadKey id, int chars, long expectedVersion) {
        return to.commit(new ThreadCommit(thread(id, json("{}"), List.of(new Message.User("m", "x".repeat(chars)))),
                expectedVersion, List.of())).await().indefinitely();
    }
}
