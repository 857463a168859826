package dev.aguistate.state.bench;

import dev.aguistate.state.DeltaPacing;
import java.time.Duration;
import java.util.Locale;

/**
 * Before and after issue 16: the {@code STATE_DELTA} bytes and waits of a streamed document (one growing string),
 * under the fixed 250 ms interval that was the default before and under the default {@link DeltaPacing}, on
 * {@link StreamingSimulation}'s simulated clock. Deterministic; seconds to run. Command: docs/benchmarks.md.
 */
public final class LongStringPacingTable {

    private static final DeltaPacing DEFAULTS = new DeltaPacing(Duration.ofMillis(250), 2048, Duration.ofSeconds(1), 4);
    private static final int[] KILOBYTES = {1, 4, 16, 64, 256, 1024};
    private static final int[] CHUNK_EVERY_MS = {0, 10, 40};
    /** The fixed interval replays every chunk's whole string: beyond this it is too slow to simulate. */
    private static final long BEFORE_LIMIT_CHUNKS = 70_000;

    private LongStringPacingTable() {}

    public static void main(String[] args) {
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
                StreamingSimulation.Result now = StreamingSimulation.paced(ArgumentShapes.DOCUMENT, arguments, 4,
                        every * 1_000_000L, DEFAULTS);
                System.out.printf(Locale.ROOT, "| %d KB | %d ms | %s | %s | %.2f | %d | %.0f ms | %.0f ms | %.0f ms |%n",
                        kb, every, before, beforeEvents, now.deltaBytes() / size, now.events(),
                        now.maxEarlyLatencyMs(), now.maxLateLatencyMs(), now.visibleLatencyMs());
            }
        }
    }
}
