package dev.aguistate.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

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

    private final ManualClock clock = new ManualClock();
    private final InMemoryThreadStore store = new InMemoryThreadStore(clock, Duration.ofHours(1), 100);

    @Override
    protected ThreadStore store() {
        return store;
    }

    @Test
    void aThreadExpiresAfterItsTtlUnlessItIsUsed() {
        String used = newId();
        String idle = newId();
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
        InMemoryThreadStore small = new InMemoryThreadStore(clock, Duration.ofHours(1), 2);
        String a = newId();
        String b = newId();
        String c = newId();
        small.commit(new ThreadCommit(thread(a, json("{}"), List.of()), 0, List.of())).await().indefinitely();
        small.commit(new ThreadCommit(thread(b, json("{}"), List.of()), 0, List.of())).await().indefinitely();
        small.load(a).await().indefinitely();

        small.commit(new ThreadCommit(thread(c, json("{}"), List.of()), 0, List.of())).await().indefinitely();

        assertTrue(small.load(b).await().indefinitely().isEmpty(), "b was the least recently used");
        assertTrue(small.load(a).await().indefinitely().isPresent());
        assertTrue(small.load(c).await().indefinitely().isPresent());
    }

    @Test
    void aClaimLapsesSoACrashedRunCannotBlockTheThread() {
        String id = newId();
        store.tryLock(id, Duration.ofSeconds(30)).await().indefinitely().orElseThrow();

        clock.advance(Duration.ofSeconds(31));

        assertTrue(store.tryLock(id, Duration.ofSeconds(30)).await().indefinitely().isPresent());
    }

    @Test
    void aRenewedClaimLastsItsNewTimeToLiveAndALapsedOneCannotBeRenewed() {
        String id = newId();
        RunLock lock = store.tryLock(id, Duration.ofSeconds(30)).await().indefinitely().orElseThrow();

        clock.advance(Duration.ofSeconds(20));
        assertTrue(store.renew(lock, Duration.ofSeconds(30)).await().indefinitely());
        clock.advance(Duration.ofSeconds(20));
        assertTrue(store.tryLock(id, Duration.ofSeconds(30)).await().indefinitely().isEmpty(), "held 40 s in");

        clock.advance(Duration.ofSeconds(11));
        assertFalse(store.renew(lock, Duration.ofSeconds(30)).await().indefinitely(), "lapsed");
        assertTrue(store.tryLock(id, Duration.ofSeconds(30)).await().indefinitely().isPresent());
    }
}
