package dev.aguistate.store.memory;

import dev.aguistate.store.LocalThreadSignals;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.RunEventLogContract;
import dev.aguistate.store.ThreadSignals;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

@Execution(ExecutionMode.CONCURRENT)
class InMemoryRunEventLogTest extends RunEventLogContract {

    private static final Duration IDLE_TTL = Duration.ofHours(1);
    private static final long UNBOUNDED = Long.MAX_VALUE;

    private final InMemoryRunEventLog log = new InMemoryRunEventLog(Clock.systemUTC(), IDLE_TTL, 100_000, UNBOUNDED);
    private final LocalThreadSignals signals = new LocalThreadSignals();

    @Override
    protected RunEventLog log() {
        return log;
    }

    @Override
    protected RunEventLog logKeeping(int maxEvents) {
        return new InMemoryRunEventLog(Clock.systemUTC(), IDLE_TTL, maxEvents, UNBOUNDED);
    }

    @Override
    protected ThreadSignals threadSignals() {
        return signals;
    }

    /** One process is one replica. */
    @Override
    protected ThreadSignals otherReplicasThreadSignals() {
        return signals;
    }

    @Test
    void whenTheBytesRunOutEndedRunsLogsGoFirstOldestEndedFirst() {
        long tenEntries = bytes(entries(0, 10));
        InMemoryRunEventLog budgeted = new InMemoryRunEventLog(Clock.systemUTC(), IDLE_TTL, 100_000, 3 * tenEntries);
        String endedFirst = newKey();
        String endedSecond = newKey();
        String running = newKey();
        append(budgeted, endedSecond, 0, 10);
        append(budgeted, endedFirst, 0, 10);
        append(budgeted, running, 0, 10);
        budgeted.expireAfter(endedFirst, IDLE_TTL).await().atMost(WAIT);
        budgeted.expireAfter(endedSecond, IDLE_TTL).await().atMost(WAIT);

        append(budgeted, running, 10, 15);

        assertEquals(List.of(), budgeted.read(endedFirst, -1, 100).await().atMost(WAIT));
        assertEquals(entries(0, 10), budgeted.read(endedSecond, -1, 100).await().atMost(WAIT));
        assertEquals(entries(0, 15), budgeted.read(running, -1, 100).await().atMost(WAIT));
        assertTrue(budgeted.heldBytes() <= 3 * tenEntries);
    }

    @Test
    void whenNoEndedRunIsLeftARunDropsItsOwnOldestEntriesNotAnotherRunsAndFollowersStillGetThem() {
        // room for the other run's log and the last ten entries of the growing one
        InMemoryRunEventLog budgeted = new InMemoryRunEventLog(Clock.systemUTC(), IDLE_TTL, 100_000,
                bytes(entries(0, 10)) + bytes(entries(30, 40)));
        String other = newKey();
        String growing = newKey();
        append(budgeted, other, 0, 10);
        AssertSubscriber<LoggedEvent> follower = budgeted.follow(growing, -1).subscribe()
                .withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));

        for (int seq = 0; seq < 40; seq += 4) {
            append(budgeted, growing, seq, seq + 4);
        }

        assertEquals(entries(0, 10), budgeted.read(other, -1, 100).await().atMost(WAIT), "the other run keeps its log");
        assertEquals(entries(30, 40), budgeted.read(growing, -1, 100).await().atMost(WAIT), "its own newest fit");
        follower.awaitItems(40, WAIT);
        assertEquals(entries(0, 40), follower.getItems(), "a follower that keeps up misses nothing");
        follower.cancel();
    }

    @Test
    void expiredLogsAreRemovedAndTheirBytesFreed() {
        String key = newKey();
        append(log, key, 0, 5);
        long held = log.heldBytes();
        log.expireAfter(key, Duration.ZERO).await().atMost(WAIT);

        assertEquals(1, log.evictExpired());

        assertEquals(held - bytes(entries(0, 5)), log.heldBytes());
        assertEquals(List.of(), read(key, -1, 10));
    }

    private static long bytes(List<LoggedEvent> entries) {
        return entries.stream().mapToLong(InMemoryRunEventLog::bytes).sum();
    }
}
