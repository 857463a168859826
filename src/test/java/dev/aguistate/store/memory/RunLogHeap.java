package dev.aguistate.store.memory;

import dev.aguistate.store.LoggedEvent;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The heap the in-memory store's run logs take per event, measured rather than counted: 2,000 runs' logs of 44 text
 * deltas each (a short answer's frames, about 95 bytes), appended one event at a time as a run appends them, then the
 * heap in use after collections, less what it was before. Once with the runs going on, once with each run ended
 * ({@code expireAfter}, as a run's end calls it). Prints a markdown table; the command is in docs/benchmarks.md.
 */
public final class RunLogHeap {

    private static final int RUNS = 2_000;
    private static final int EVENTS = 44;

    private RunLogHeap() {}

    public static void main(String[] args) throws InterruptedException {
        measure(false); // a first pass: what the JVM allocates and keeps once is not the log's
        System.out.println("| runs | entries | heap per entry, bytes | counted per entry, bytes |");
        System.out.println("|---|---|---|---|");
        for (boolean ended : new boolean[] {false, true}) {
            double[] perEntry = measure(ended);
            System.out.printf("| %s | %d | %.1f | %.1f |%n", ended ? "ended" : "going on", RUNS * EVENTS, perEntry[0],
                    perEntry[1]);
        }
    }

    /** The heap in use per entry and the bytes each is counted as, with the runs going on or ended. */
    private static double[] measure(boolean ended) throws InterruptedException {
        InMemoryRunEventLog log = new InMemoryRunEventLog(Clock.systemUTC(), Duration.ofHours(1), 100_000,
                Long.MAX_VALUE);
        long before = usedAfterCollections();
        for (int run = 0; run < RUNS; run++) {
            String key = run + "." + UUID.randomUUID();
            for (int seq = 1; seq <= EVENTS; seq++) {
                log.append(key, List.of(delta(run, seq))).await().indefinitely();
            }
            if (ended) {
                log.expireAfter(key, Duration.ofHours(1)).await().indefinitely();
            }
        }
        long used = usedAfterCollections() - before;
        int entries = RUNS * EVENTS;
        return new double[] {used / (double) entries, log.heldBytes() / (double) entries};
    }

    /** A text delta's frame, as a run of ours writes it: the cursor, then the event's JSON. */
    private static LoggedEvent delta(int run, int seq) {
        String json = "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"msg-" + run + "\",\"delta\":\" word"
                + seq % 10 + "\"}";
        byte[] frame = ("id: " + Long.toString(run, Character.MAX_RADIX) + "." + seq + "\ndata: " + json + "\n\n")
                .getBytes(StandardCharsets.UTF_8);
        return LoggedEvent.inFrame(seq, frame, frame.length - json.length() - 2, frame.length - 2);
    }

    private static long usedAfterCollections() throws InterruptedException {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
