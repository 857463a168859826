package dev.aguistate.store.memory;

import dev.aguistate.store.LocalThreadSignals;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.RunEventLogContract;
import dev.aguistate.store.ThreadSignals;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
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
    void entriesKeptAsFramesComeBackAsTheSameFramesAfterTheOldestWereDroppedAndTheLogCompacted() {
        InMemoryRunEventLog small = new InMemoryRunEventLog(Clock.systemUTC(), IDLE_TTL, 7, UNBOUNDED);
        String key = newKey();
        List<LoggedEvent> appended = new ArrayList<>();
        appended.add(new LoggedEvent(0, "{\"base\":\"é\"}")); // text, not a frame; not ASCII
        for (int seq = 1; seq <= 40; seq++) {
            String json = "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"delta\":\"" + "ü".repeat(seq % 5) + seq + "\"}";
            byte[] frame = ("id: 7." + seq + "\ndata: " + json + "\n\n").getBytes(StandardCharsets.UTF_8);
            int jsonBytes = json.getBytes(StandardCharsets.UTF_8).length;
            appended.add(LoggedEvent.inFrame(seq, frame, frame.length - jsonBytes - 2, frame.length - 2));
        }
        for (int from = 0; from < appended.size(); from += 3) { // batches, as a run's appends come
            small.append(key, appended.subList(from, Math.min(appended.size(), from + 3))).await().atMost(WAIT);
        }

        log.append(key, appended).await().atMost(WAIT);
        List<LoggedEvent> kept = small.read(key, -1, 100).await().atMost(WAIT);

        assertEquals(appended, log.read(key, -1, 100).await().atMost(WAIT), "all of them, the text as text");
        assertEquals(appended.subList(34, 41), kept, "the newest seven: their numbers and JSON");
        for (int i = 0; i < kept.size(); i++) {
            assertArrayEquals(appended.get(34 + i).frame(), kept.get(i).frame(), "entry " + kept.get(i).seq());
        }
        assertEquals(appended.subList(34, 41).stream().mapToLong(InMemoryRunEventLog::bytes).sum(),
                small.heldBytes(), "what was dropped is no longer counted");

        small.expireAfter(key, IDLE_TTL).await().atMost(WAIT); // the run ended: its log is trimmed
        assertEquals(kept, small.read(key, -1, 100).await().atMost(WAIT), "an ended run's log reads the same");
        small.append(key, List.of(appended.get(40))).await().atMost(WAIT);
        small.append(key, entries(41, 43)).await().atMost(WAIT);
        assertEquals(List.of(appended.get(40), entries(41, 43).get(0), entries(41, 43).get(1)),
                small.read(key, 39, 100).await().atMost(WAIT), "and takes an entry after it, as before");
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
