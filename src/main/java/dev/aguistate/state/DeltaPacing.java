package dev.aguistate.state;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link PredictiveState#drainDue} paces predicted {@code STATE_DELTA}s. JSON Patch cannot append to a string,
 * so every update of a growing string carries all of it: pacing by time alone makes a long string cost the square
 * of its length. Here each growing string has a byte budget, and the deadlines hold as far as the budget allows
 * (the arithmetic and the resulting guarantee are in docs/predictive-state.md).
 *
 * @param interval           a change waits at most this long: members of objects and arrays, and the text of a
 *                           string that has shown less than {@code longTextAfterChars}; zero turns pacing off (a
 *                           delta per argument fragment, whole strings each time, no budget)
 * @param longTextAfterChars once a string has shown this many characters, its further text waits up to
 *                           {@code longTextInterval}
 * @param longTextInterval   the deadline for the text of a long string
 * @param stringBudget       the updates of one string cost at most this many times its final size (at least 3:
 *                           one share for the final text, one for the text at the last update, the rest to spend)
 */
public record DeltaPacing(Duration interval, int longTextAfterChars, Duration longTextInterval, int stringBudget) {

    /** A delta per argument fragment that changed the prediction. */
    public static final DeltaPacing UNPACED = new DeltaPacing(Duration.ZERO, 0, Duration.ZERO, 3);

    public DeltaPacing {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(longTextInterval, "longTextInterval");
        if (interval.isNegative() || longTextInterval.compareTo(interval) < 0) {
            throw new IllegalArgumentException("delta intervals must be ≥ 0 and the long-text one ≥ the other: "
                    + interval + ", " + longTextInterval);
        }
        if (longTextAfterChars < 0 || stringBudget < 3) {
            throw new IllegalArgumentException("long-text threshold must be ≥ 0 and the string budget ≥ 3: "
                    + longTextAfterChars + ", " + stringBudget);
        }
    }

    boolean paced() {
        return !interval.isZero();
    }
}
