package dev.aguistate.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.state.bench.ArgumentShapes;
import dev.aguistate.state.bench.StreamingSimulation;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The guarantee of {@link DeltaPacing} at the default settings (docs/predictive-state.md), on a simulated clock:
 * the STATE_DELTA bytes of a growing string total at most 4× its final size at every length and pacing, and the
 * deadlines hold where the budget allows them, which these cases pin down.
 */
class LongStringPacingTest {

    static final DeltaPacing DEFAULTS = new DeltaPacing(Duration.ofMillis(250), 2048, Duration.ofSeconds(1), 4);
    private static final long MS = 1_000_000;

    @ParameterizedTest(name = "{0} KB, a 4-character chunk every {1} ms")
    @CsvSource({
            "1, 0", "1, 10", "1, 40",
            "4, 0", "4, 10", "4, 40",
            "16, 0", "16, 10", "16, 40",
            "64, 0", "64, 10",
            "256, 0", "256, 10",
            "1024, 0", "1024, 10",
    })
    void aGrowingStringCostsAtMostFourTimesItsFinalSize(int kilobytes, int chunkEveryMs) {
        String arguments = ArgumentShapes.DOCUMENT.json(kilobytes * 1024);
        StreamingSimulation.Result result = StreamingSimulation.paced(ArgumentShapes.DOCUMENT, arguments, 4,
                chunkEveryMs * MS, DEFAULTS);

        // JSON Patch cannot append: the whole string, and once more at its end, is the least any update costs
        assertTrue(result.events() >= 2);
        long finalSize = finalStringBytes(arguments);
        assertTrue(result.deltaBytes() <= 4 * finalSize,
                result.deltaBytes() + " delta bytes for a string of " + finalSize + " bytes");
    }

    /** The contrast: what the budget prevents (interval 0 is the documented way to turn pacing off). */
    @Test
    void withPacingOffEveryFragmentSendsTheWholeString() {
        String arguments = ArgumentShapes.DOCUMENT.json(1024);
        StreamingSimulation.Result result = StreamingSimulation.paced(ArgumentShapes.DOCUMENT, arguments, 4, 10 * MS,
                DeltaPacing.UNPACED);
        assertTrue(result.deltaBytes() > 50 * finalStringBytes(arguments), result.deltaBytes() + " bytes");
    }

    /** Streamed at once, the whole string is one update: nothing waits. */
    @ParameterizedTest(name = "{0} KB")
    @CsvSource({"1", "64", "1024"})
    void aStringWrittenAtOnceIsSentOnceWithoutWaiting(int kilobytes) {
        String arguments = ArgumentShapes.DOCUMENT.json(kilobytes * 1024);
        StreamingSimulation.Result result = StreamingSimulation.paced(ArgumentShapes.DOCUMENT, arguments, 4, 0,
                DEFAULTS);
        assertEquals(0, result.maxEarlyLatencyMs());
        assertEquals(0, result.maxLateLatencyMs());
        assertTrue(result.events() <= 2, result.events() + " events"); // the key appears, then its text
    }

    /**
     * A fast stream (4,000 characters a second, 4 every millisecond) keeps both deadlines for a whole string of up
     * to 8 KB: the budget has room for an update every 250 ms until 2 KB and every second after. The bound is the
     * deadline plus the gap to the next chunk, when the run loop next looks.
     */
    @ParameterizedTest(name = "{0} KB")
    @CsvSource({"2", "4", "8"})
    void aFastStreamKeepsBothDeadlines(int kilobytes) {
        String arguments = ArgumentShapes.DOCUMENT.json(kilobytes * 1024);
        StreamingSimulation.Result result = StreamingSimulation.paced(ArgumentShapes.DOCUMENT, arguments, 4, MS,
                DEFAULTS);
        assertTrue(result.maxEarlyLatencyMs() <= 250 + 1, "first 2 KB waited up to " + result.maxEarlyLatencyMs());
        assertTrue(result.maxLateLatencyMs() <= 1000 + 1, "later text waited up to " + result.maxLateLatencyMs());
    }

    /**
     * At ≈ 100 tokens a second (4 characters every 10 ms) the budget allows the quarter-second deadline for the
     * first ≈ 1.5 s of a string (6 updates); then an update waits until the string has grown by half: the wait
     * grows with the string, about a third of the time it has been streaming.
     */
    @ParameterizedTest(name = "{0} KB")
    @CsvSource({"16", "64"})
    void atModelSpeedTheBudgetBindsAndUpdatesWaitForTheStringToGrowByHalf(int kilobytes) {
        String arguments = ArgumentShapes.DOCUMENT.json(kilobytes * 1024);
        StreamingSimulation.Result result = StreamingSimulation.paced(ArgumentShapes.DOCUMENT, arguments, 4, 10 * MS,
                DEFAULTS);
        double streamingMs = (arguments.length() / 4.0) * 10;
        assertTrue(result.maxLateLatencyMs() > 1000, "the 1 s deadline cannot hold: " + result.maxLateLatencyMs());
        assertTrue(result.maxLateLatencyMs() <= streamingMs / 3 + 1000,
                "waited " + result.maxLateLatencyMs() + " ms of " + streamingMs + " ms of streaming");
    }

    private static long finalStringBytes(String arguments) {
        return StreamingSimulation.finalStringBytes(arguments);
    }
}
