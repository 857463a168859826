package dev.aguistate.state;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.state.bench.ArgumentShapes;
import dev.aguistate.state.bench.StreamingSimulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Wire bytes for a recipe streamed in 4-character chunks, drained after every chunk (interval 0).
 *
 * <p>The brief's target of 3× the argument bytes cannot be met at interval 0 by any RFC 6902 encoding: nearly
 * every 4-character chunk changes what the user sees, and the smallest possible STATE_DELTA event is ~66 bytes
 * ({@code {"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}}), i.e. ≥ 14× for this recipe.
 * What the design does guarantee, and what is asserted here: bytes grow linearly with the argument (a bounded
 * overhead per chunk, no whole-value re-sends as in MAF), and the 3× target is reached by coalescing
 * (docs/predictive-state.md has the measured table).
 */
@Execution(ExecutionMode.CONCURRENT)
class PatchEfficiencyTest {

    private static final int CHUNK = 4;

    @Test
    void recipeDeltaBytesGrowLinearlyWithTheArgument() {
        double small = ratio(3 * 1024, 0);
        double large = ratio(12 * 1024, 0);
        assertTrue(large <= small * 1.1, "delta ÷ argument grew from " + small + " (3 KB) to " + large + " (12 KB)");
        assertTrue(large <= 30, "delta ÷ argument at 12 KB, interval 0 = " + large);
    }

    @Test
    void coalescingQuarterSecondsBringsRecipeDeltasToThreeTimesTheArgument() {
        double ratio = ratio(12 * 1024, 250);
        assertTrue(ratio <= 3.05, "delta ÷ argument at 12 KB, 250 ms = " + ratio);
    }

    private static double ratio(int argumentBytes, int coalesceMs) {
        String arguments = ArgumentShapes.RECIPE.json(argumentBytes);
        StreamingSimulation.Result result = StreamingSimulation.run(ArgumentShapes.RECIPE, arguments, CHUNK, coalesceMs);
        return (double) result.deltaBytes() / StreamingSimulation.utf8Bytes(arguments);
    }
}
