package dev.aguistate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * What every {@link RunEventLog} and its {@link ThreadSignals} must do; each store's test extends this. Keys are fresh
 * per test (UUIDs, as claim tokens are), so a shared server needs no cleaning between tests.
 */
public abstract class RunEventLogContract {

    protected static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration POLL_EVERY = Duration.ofMillis(50);

    /** The log under test, keeping 100,000 entries per log. */
    protected abstract RunEventLog log();

    /** Another log on the same store keeping at most {@code maxEvents} entries per log. */
    protected abstract RunEventLog logKeeping(int maxEvents);

    /** How many entries more than its bound the store may keep (Redis trims whole stream nodes). */
    protected int boundSlack() {
        return 0;
    }

    /** The stop signals of this replica. */
    protected abstract ThreadSignals threadSignals();

    /** The stop signals of another replica on the same store: another client, another connection. */
    protected abstract ThreadSignals otherReplicasThreadSignals();

    @Test
    void entriesReadBackInOrderAfterTheGivenSeq() {
        String key = newKey();
        append(log(), key, 0, 3);
        append(log(), key, 3, 7);

        assertEquals(entries(0, 7), read(key, -1, 100), "the base entry (seq 0) too");
        assertEquals(entries(1, 7), read(key, 0, 100));
        assertEquals(entries(3, 5), read(key, 2, 2), "at most max");
        assertEquals(List.of(), read(key, 6, 100), "nothing after the latest");
    }

    @Test
    void aLogReadsInPagesFromTheCursorToItsEnd() {
        String key = newKey();
        for (int seq = 0; seq < 2 * RunEventLog.PAGE + 10; seq += 500) {
            append(log(), key, seq, Math.min(seq + 500, 2 * RunEventLog.PAGE + 10));
        }

        List<List<LoggedEvent>> fromStart = log().pages(key, -1).collect().asList().await().atMost(WAIT);
        List<List<LoggedEvent>> fullPages = log().pages(key, 9).collect().asList().await().atMost(WAIT);

        assertEquals(List.of(RunEventLog.PAGE, RunEventLog.PAGE, 10), fromStart.stream().map(List::size).toList());
        assertEquals(entries(0, 2 * RunEventLog.PAGE + 10), fromStart.stream().flatMap(List::stream).toList());
        assertEquals(List.of(RunEventLog.PAGE, RunEventLog.PAGE), fullPages.stream().map(List::size).toList(),
                "no empty page after a full last one");
        assertEquals(List.of(), log().pages(newKey(), -1).collect().asList().await().atMost(WAIT));
    }

    @Test
    void anUnknownLogReadsAsEmpty() {
        assertEquals(List.of(), read(newKey(), -1, 100));
    }

    @Test
    void aRepeatedAppendChangesNothing() {
        String key = newKey();
        append(log(), key, 0, 4);
        append(log(), key, 2, 6); // 2 and 3 again, as a retry after a timed-out append would send them

        assertEquals(entries(0, 6), read(key, -1, 100));
    }

    @Test
    void twoLogsAreIndependent() {
        String first = newKey();
        String second = newKey();
        append(log(), first, 0, 3);
        log().append(second, List.of(new LoggedEvent(0, "{\"other\":true}"))).await().atMost(WAIT);

        assertEquals(entries(0, 3), read(first, -1, 100));
        assertEquals(List.of(new LoggedEvent(0, "{\"other\":true}")), read(second, -1, 100));
    }

    @Test
    void aFollowerGetsWhatIsLoggedThenEachEntryAsItIsAppendedInOrderWithoutLossOrDuplicates() {
        String key = newKey();
        append(log(), key, 0, 10);
        AssertSubscriber<LoggedEvent> fromStart = follow(key, -1);
        AssertSubscriber<LoggedEvent> fromMiddle = follow(key, 4);
        fromStart.awaitItems(10, WAIT);

        // another log is appended to at the same time, and a third follower starts in the middle of it all
        String other = newKey();
        CompletableFuture<Void> elsewhere = CompletableFuture.runAsync(() -> {
            for (int seq = 0; seq < 200; seq += 5) {
                append(log(), other, seq, seq + 5);
            }
        });
        AssertSubscriber<LoggedEvent> late = null;
        for (int seq = 10; seq < 500; seq += 7) {
            append(log(), key, seq, Math.min(seq + 7, 500));
            if (late == null && seq > 250) {
                late = follow(key, 100);
            }
        }
        elsewhere.join();

        fromStart.awaitItems(500, WAIT);
        fromMiddle.awaitItems(495, WAIT);
        late.awaitItems(399, WAIT);
        assertEquals(entries(0, 500), fromStart.getItems());
        assertEquals(entries(5, 500), fromMiddle.getItems());
        assertEquals(entries(101, 500), late.getItems());
        List.of(fromStart, fromMiddle, late).forEach(follower -> {
            follower.assertNotTerminated();
            follower.cancel();
        });
    }

    @Test
    void aFollowerOfALogThatDoesNotExistYetGetsItsEntriesOnceAppended() {
        String key = newKey();
        AssertSubscriber<LoggedEvent> follower = follow(key, -1);

        append(log(), key, 0, 3);

        follower.awaitItems(3, WAIT);
        assertEquals(entries(0, 3), follower.getItems());
        follower.cancel();
    }

    @Test
    void aFollowerOnlyReadsAsFastAsItsReaderAsks() {
        String key = newKey();
        append(log(), key, 0, 50);
        AssertSubscriber<LoggedEvent> follower = log().follow(key, -1).subscribe()
                .withSubscriber(AssertSubscriber.create(5));

        follower.awaitItems(5, WAIT);
        follower.request(10);
        follower.awaitItems(15, WAIT);

        assertEquals(entries(0, 15), follower.getItems());
        follower.cancel();
    }

    @Test
    void aFullLogDropsItsOldestEntriesAndAReaderSeesTheGap() {
        RunEventLog small = logKeeping(10);
        String key = newKey();
        for (int seq = 0; seq < 300; seq += 7) {
            append(small, key, seq, Math.min(seq + 7, 300));
        }

        List<LoggedEvent> kept = small.read(key, -1, 1000).await().atMost(WAIT);

        assertTrue(kept.size() >= 10 && kept.size() <= 10 + boundSlack(), "kept " + kept.size());
        long first = kept.get(0).seq();
        assertTrue(first > 0, "the first entries went");
        assertEquals(entries(first, 300), kept, "the newest, without a gap among them");
    }

    @Test
    void aLogExpiresAfterTheTimeItsRunsEndGaveItAndOthersStay() {
        String ended = newKey();
        String running = newKey();
        append(log(), ended, 0, 3);
        append(log(), running, 0, 3);

        log().expireAfter(ended, Duration.ofMillis(300)).await().atMost(WAIT);

        awaitUntil(() -> read(ended, -1, 100).isEmpty(), "the ended run's log expires");
        assertEquals(entries(0, 3), read(running, -1, 100));
    }

    @Test
    void manyFollowersDoNotStarveOtherCalls() {
        List<AssertSubscriber<LoggedEvent>> followers = IntStream.range(0, 12).mapToObj(i -> follow(newKey(), -1))
                .toList();
        String key = newKey();

        append(log(), key, 0, 2);

        assertEquals(entries(0, 2), read(key, -1, 10));
        followers.forEach(AssertSubscriber::cancel);
    }

    @Test
    void aSignalReachesTheListenersOfEveryReplica() {
        Set<ThreadSignal> here = ConcurrentHashMap.newKeySet();
        Set<ThreadSignal> there = ConcurrentHashMap.newKeySet();
        threadSignals().listen(here::add);
        otherReplicasThreadSignals().listen(there::add);
        ThreadSignal signal = new ThreadSignal.Steer(newKey(), newKey());

        // delivery is at most once: a replica still subscribing misses a signal, so it is sent until both got it
        awaitUntil(() -> {
            threadSignals().send(signal).await().atMost(WAIT);
            return here.contains(signal) && there.contains(signal);
        }, "both replicas hear the signal");
    }

    protected static String newKey() {
        return UUID.randomUUID().toString();
    }

    /** Appends the entries {@code from} (inclusive) to {@code to} (exclusive) as one batch. */
    protected static void append(RunEventLog log, String key, long from, long to) {
        log.append(key, entries(from, to)).await().atMost(WAIT);
    }

    /** The entries {@code from} (inclusive) to {@code to} (exclusive), each a text delta of its own seq. */
    protected static List<LoggedEvent> entries(long from, long to) {
        return LongStream.range(from, to).mapToObj(seq -> new LoggedEvent(seq,
                "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"" + seq + "\"}")).toList();
    }

    protected List<LoggedEvent> read(String key, long afterSeq, int max) {
        return log().read(key, afterSeq, max).await().atMost(WAIT);
    }

    protected AssertSubscriber<LoggedEvent> follow(String key, long afterSeq) {
        return log().follow(key, afterSeq).subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
    }

    /** A follow that fails: it must fail with {@link StoreUnavailable}, within the bound. */
    protected static void assertFollowFails(RunEventLog log) {
        AssertSubscriber<LoggedEvent> follower = log.follow(newKey(), -1).subscribe()
                .withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        follower.awaitFailure(WAIT);
        assertInstanceOf(StoreUnavailable.class, follower.getFailure());
    }

    /** Polls with a bound instead of sleeping a fixed time that is either too short or wasted. */
    protected static void awaitUntil(BooleanSupplier condition, String what) {
        Instant deadline = Instant.now().plus(WAIT);
        while (!condition.getAsBoolean()) {
            assertTrue(Instant.now().isBefore(deadline), "not within " + WAIT + ": " + what);
            try {
                Thread.sleep(POLL_EVERY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
