package dev.aguistate.state.bench;

import dev.aguistate.state.DeltaPacing;
import java.time.Duration;
import java.util.Locale;

/**
 * The {@code STATE_DELTA} bytes and waits of a streamed document (one growing string) on
 * {@link StreamingSimulation}'s simulated clock. Deterministic; seconds to run. Command: docs/benchmarks.md.
 * <ul>
 *   <li>no argument: issue 16's table, the fixed 250 ms interval (the default before it) against the default
 *       {@link DeltaPacing};</li>
 *   <li>{@code gaps}: issue 31's table, issue 16's pacing (a 1 s deadline for long text, 4× budget) against the
 *       default (2 s, 16×) for the documents and model speeds the owner named.</li>
 * </ul>
 */
public final class LongStringPacingTable {

    private static final DeltaPacing DEFAULTS = StreamingSimulation.defaultPacing();
    private static final DeltaPacing ISSUE_16 = new DeltaPacing(Duration.ofMillis(250), 2048, Duration.ofSeconds(1), 4);
    private static final int[] KILOBYTES = {1, 4, 16, 64, 256, 1024};
    private static final int[] CHUNK_EVERY_MS = {0, 10, 40};
    /** The fixed interval replays every chunk's whole string: beyond this it is too slow to simulate. */
    private static final long BEFORE_LIMIT_CHUNKS = 70_000;

    private LongStringPacingTable() {}

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("gaps")) {
            gaps();
        } else {
            againstFixedInterval();
        }
    }

    private static void againstFixedInterval() {
        System.out.println("| document | 4 chars every | before: delta ÷ string | before: events | after: delta ÷ string"
                + " | after: events | after: max wait, first 2 KB | after: max wait, later | after: mean wait |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (int kb : KILOBYTES) {
            String arguments = ArgumentShapes.DOCUMENT.json(kb * 1024);
            double size = StreamingSimulation.finalStringBytes(arguments);
            for (int every : CHUNK_EVERY_MS) {
                if (every == 40 && kb > 16) {
                    continue;
                }
                long chunks = arguments.length() / 4;
                String before = "–";
                String beforeEvents = "–";
                if (every == 0 || chunks * every / 250 < BEFORE_LIMIT_CHUNKS / 25) {
                    StreamingSimulation.Result old = StreamingSimulation.fixedInterval(ArgumentShapes.DOCUMENT,
                            arguments, 4, every, 250);
                    before = String.format(Locale.ROOT, "%.1f", old.deltaBytes() / size);
                    beforeEvents = String.valueOf(old.events());
                }
                StreamingSimulation.Result now = paced(arguments, every, DEFAULTS);
                System.out.printf(Locale.ROOT, "| %d KB | %d ms | %s | %s | %.2f | %d | %.0f ms | %.0f ms | %.0f ms |%n",
                        kb, every, before, beforeEvents, now.deltaBytes() / size, now.events(),
                        now.maxEarlyLatencyMs(), now.maxLateLatencyMs(), now.visibleLatencyMs());
            }
        }
    }

    private static void gaps() {
        System.out.println("| document | 4 chars every | streams for | issue 16: delta ÷ string | issue 16: longest wait"
                + " | now: delta ÷ string | now: longest wait | now: events |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (int kb : new int[] {12, 48}) {
            String arguments = ArgumentShapes.DOCUMENT.json(kb * 1024);
            double size = StreamingSimulation.finalStringBytes(arguments);
            for (int every : new int[] {2, 10}) {
                StreamingSimulation.Result before = paced(arguments, every, ISSUE_16);
                StreamingSimulation.Result now = paced(arguments, every, DEFAULTS);
                System.out.printf(Locale.ROOT, "| %d KB | %d ms | %.0f s | %.2f | %.0f ms | %.2f | %.0f ms | %d |%n",
                        kb, every, arguments.length() / 4 * every / 1000.0, before.deltaBytes() / size,
                        longestWait(before), now.deltaBytes() / size, longestWait(now), now.events());
            }
        }
    }

    private static StreamingSimulation.Result paced(String arguments, int everyMs, DeltaPacing pacing) {
        return StreamingSimulation.paced(ArgumentShapes.DOCUMENT, arguments, 4, everyMs * 1_000_000L, pacing);
    }

    private static double longestWait(StreamingSimulation.Result result) {
        return Math.max(result.maxEarlyLatencyMs(), result.maxLateLatencyMs());
    }
}
