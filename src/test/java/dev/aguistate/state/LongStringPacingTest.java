package dev.aguistate.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.state.bench.ArgumentShapes;
import dev.aguistate.state.bench.StreamingSimulation;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The guarantee of {@link DeltaPacing} at the default settings (docs/predictive-state.md), on a simulated clock:
 * the STATE_DELTA bytes of a growing string total at most 16× its final size at every length and pacing, and
 * updates come at most 2 s apart (250 ms in a string's first 2 KB) until that budget binds, which these cases pin
 * down.
 */
@Execution(ExecutionMode.CONCURRENT)
class LongStringPacingTest {

    static final DeltaPacing DEFAULTS = StreamingSimulation.defaultPacing();
    private static final long MS = 1_000_000;
    private static final int BUDGET = 16;
    private static final long LONG_TEXT_DEADLINE_MS = 2000;

    @Test
    void theDefaultsAreTheOnesDocumented() {
        assertEquals(new DeltaPacing(Duration.ofMillis(250), 2048, Duration.ofMillis(LONG_TEXT_DEADLINE_MS), BUDGET),
                DEFAULTS);
    }

    @ParameterizedTest(name = "{0} KB, a 4-character chunk every {1} ms")
    @CsvSource({
            "1, 0", "1, 10", "1, 40",
            "4, 0", "4, 10", "4, 40",
            "16, 0", "16, 10", "16, 40",
            "64, 0", "64, 10",
            "256, 0", "256, 10",
            "1024, 0", "1024, 10",
    })
    void aGrowingStringCostsAtMostItsBudgetTimesItsFinalSize(int kilobytes, int chunkEveryMs) {
        String arguments = ArgumentShapes.DOCUMENT.json(kilobytes * 1024);
        StreamingSimulation.Result result = StreamingSimulation.paced(ArgumentShapes.DOCUMENT, arguments, 4,
                chunkEveryMs * MS, DEFAULTS);

        // JSON Patch cannot append: the whole string, and once more at its end, is the least any update costs
        assertTrue(result.events() >= 2);
        long finalSize = finalStringBytes(arguments);
        assertTrue(result.deltaBytes() <= BUDGET * finalSize,
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
     * The owner's bound (issue 31): while a string's updates stay within the budget, no text waits longer than the
     * deadlines — 250 ms in the first 2 KB, 2 s after — plus the gap to the next chunk, when the run loop next
     * looks. Cases from a fast stream (4,000 characters a second) to model speed (400), each streaming for at most
     * about a minute, where an update every 2 s costs less than the budget.
     */
    @ParameterizedTest(name = "{0} KB, a 4-character chunk every {1} ms")
    @CsvSource({"2, 1", "8, 1", "64, 1", "12, 2", "48, 2", "12, 10", "16, 10"})
    void withinTheBudgetUpdatesComeAtMostTwoSecondsApart(int kilobytes, int chunkEveryMs) {
        String arguments = ArgumentShapes.DOCUMENT.json(kilobytes * 1024);
        StreamingSimulation.Result result = StreamingSimulation.paced(ArgumentShapes.DOCUMENT, arguments, 4,
                chunkEveryMs * MS, DEFAULTS);
        assertTrue(result.maxEarlyLatencyMs() <= 250 + chunkEveryMs,
                "first 2 KB waited up to " + result.maxEarlyLatencyMs());
        assertTrue(result.maxLateLatencyMs() <= LONG_TEXT_DEADLINE_MS + chunkEveryMs,
                "later text waited up to " + result.maxLateLatencyMs());
    }

    /**
     * Past the budget the gap may grow: a string that streams for minutes at model speed (4 characters every 10 ms)
     * gets an update whenever it has grown by about 1/(budget − 2) since the last, so a character waits at most
     * about that share of the time the string has been streaming, plus the deadline.
     */
    @ParameterizedTest(name = "{0} KB")
    @CsvSource({"48", "256"})
    void pastTheBudgetUpdatesWaitForTheStringToGrowByASlice(int kilobytes) {
        String arguments = ArgumentShapes.DOCUMENT.json(kilobytes * 1024);
        StreamingSimulation.Result result = StreamingSimulation.paced(ArgumentShapes.DOCUMENT, arguments, 4, 10 * MS,
                DEFAULTS);
        double streamingMs = (arguments.length() / 4.0) * 10;
        assertTrue(result.maxLateLatencyMs() > LONG_TEXT_DEADLINE_MS,
                "the 2 s deadline cannot hold within the budget: " + result.maxLateLatencyMs());
        assertTrue(result.maxLateLatencyMs() <= streamingMs / (BUDGET - 2) + LONG_TEXT_DEADLINE_MS,
                "waited " + result.maxLateLatencyMs() + " ms of " + streamingMs + " ms of streaming");
    }

    private static long finalStringBytes(String arguments) {
        return StreamingSimulation.finalStringBytes(arguments);
    }
}
