package dev.aguistate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What the stores that replicas share must do beyond the contract, in real time against a real server: every
 * replica sees the same threads, commits really in flight at once have one winner, unused threads expire while read
 * ones stay, and a lapsed claim can be taken.
 */
public abstract class SharedThreadStoreContract extends ThreadStoreContract {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration SHORT_TTL = Duration.ofMillis(600);
    private static final Duration READ_EVERY = Duration.ofMillis(100);

    /** Another store on the same server, as a second replica has it, keeping threads for {@code ttl}. */
    protected abstract ThreadBackend replica(Duration ttl);

    @Test
    void anotherReplicaSeesTheThreadAndLosesARaceForIt() {
        ThreadKey id = newId();
        commit(thread(id, json("{\"v\":1}"), List.of()), 0);
        ThreadBackend other = replica(Duration.ofHours(1));

        assertEquals(json("{\"v\":1}"), other.load(id).await().atMost(WAIT).orElseThrow().state());
        commit(thread(id, json("{\"v\":2}"), List.of()), 1);
        Throwable lost = assertThrows(RuntimeException.class, () -> other.commit(
                new ThreadCommit(thread(id, json("{\"v\":3}"), List.of()), 1, List.of())).await().atMost(WAIT));
        assertInstanceOf(VersionConflict.class, lost);
    }

    @Test
    void ofCommitsInFlightAtOnceOnTwoReplicasExactlyOneWinsWithItsScope() {
        ThreadKey id = newId();
        String scope = ScopedState.userScope(thread(id, json("{}"), List.of()).owner());
        commit(thread(id, json("{}"), List.of()), 0);
        ThreadBackend other = replica(Duration.ofHours(1));
        List<Uni<Boolean>> racers = IntStream.range(0, 16).mapToObj(i -> (i % 2 == 0 ? store() : other)
                .commit(new ThreadCommit(thread(id, json("{\"winner\":" + i + "}"), List.of()), 1,
                        List.of(new ThreadCommit.ScopeWrite(scope, json("{\"winner\":" + i + "}"), 0))))
                .map(stored -> true)
                .onFailure(VersionConflict.class).recoverWithItem(false)).toList();

        List<Boolean> won = Uni.join().all(racers).andFailFast().await().atMost(WAIT);

        assertEquals(1, won.stream().filter(w -> w).count());
        StoredThread stored = store().load(id).await().atMost(WAIT).orElseThrow();
        ScopedState shared = store().loadScope(scope).await().atMost(WAIT);
        assertEquals(2, stored.version());
        assertEquals(1, shared.version());
        assertEquals(stored.state(), shared.state(), "the thread and the scope come from the same winner");
    }

    @Test
    void anotherReplicaCannotSummarizeAThreadThatOneSummarizesUntilItsLockLapses() {
        ThreadKey id = newId();
        ThreadBackend other = replica(Duration.ofHours(1));
        SummaryLock held = store().tryLockSummary(id, SHORT_TTL).await().atMost(WAIT).orElseThrow();

        assertTrue(other.tryLockSummary(id, Duration.ofMinutes(1)).await().atMost(WAIT).isEmpty());
        awaitUntil(() -> other.tryLockSummary(id, Duration.ofMinutes(1)).await().atMost(WAIT).isPresent(),
                "the lock of a replica that stopped lapses");
        store().unlockSummary(held).await().atMost(WAIT);
        assertTrue(store().tryLockSummary(id, Duration.ofMinutes(1)).await().atMost(WAIT).isEmpty(),
                "the lapsed holder's release leaves the new holder's lock alone");
    }

    @Test
    void aThreadExpiresWhenUnusedForItsTtlButReadingKeepsItAlive() {
        ThreadBackend shortLived = replica(SHORT_TTL);
        StoredThread thread = thread(newId(), json("{}"), List.of());
        shortLived.commit(new ThreadCommit(thread, 0, List.of())).await().atMost(WAIT);

        Instant readUntil = Instant.now().plus(SHORT_TTL.multipliedBy(2));
        while (Instant.now().isBefore(readUntil)) {
            assertTrue(shortLived.load(thread.key()).await().atMost(WAIT).isPresent(), "each read renews the TTL");
            pause(READ_EVERY);
        }

        // Listing does not renew the TTL, so it can watch the thread go.
        awaitUntil(() -> shortLived.list(thread.owner(), 0, 10).await().atMost(WAIT).isEmpty(), "the thread expires");
        assertTrue(shortLived.load(thread.key()).await().atMost(WAIT).isEmpty());
    }

    @Test
    void aLapsedClaimCanBeTaken() {
        ThreadKey id = newId();
        store().tryLock(id, "run-1", Duration.ofMillis(300)).await().atMost(WAIT).orElseThrow();
        assertTrue(store().tryLock(id, "run-1", Duration.ofMinutes(1)).await().atMost(WAIT).isEmpty(), "still held");

        awaitUntil(() -> store().tryLock(id, "run-1", Duration.ofMinutes(1)).await().atMost(WAIT).isPresent(),
                "the claim lapses");
    }

    @Test
    void aRenewedClaimOutlivesItsFirstTimeToLive() {
        ThreadKey id = newId();
        Instant firstTtlOver = Instant.now().plusMillis(600);
        RunLock lock = store().tryLock(id, "run-1", Duration.ofMillis(300)).await().atMost(WAIT).orElseThrow();
        assertTrue(store().renew(lock, Duration.ofMinutes(1)).await().atMost(WAIT));

        awaitUntil(() -> Instant.now().isAfter(firstTtlOver), "the first time to live is over");

        assertTrue(store().tryLock(id, "run-1", Duration.ofMinutes(1)).await().atMost(WAIT).isEmpty(), "still held");
    }

    /** Polls with a bound instead of sleeping a fixed time that is either too short or wasted. */
    public static void awaitUntil(BooleanSupplier condition, String what) {
        Instant deadline = Instant.now().plus(WAIT);
        while (!condition.getAsBoolean()) {
            assertTrue(Instant.now().isBefore(deadline), "not within " + WAIT + ": " + what);
            pause(READ_EVERY);
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
