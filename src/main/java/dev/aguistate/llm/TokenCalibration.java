package dev.aguistate.llm;

/**
 * How far {@link TokenEstimator}'s counts are from what the upstream reports as a request's {@code inputTokens}
 * (another vendor's tokenizer, the tool definitions' framing, media): a factor that estimates are multiplied by,
 * learnt as a moving average of reported / estimated over the server's calls. It starts at 1, and a single odd
 * report moves it only part of the way; it stays within [{@value #MIN}, {@value #MAX}] so that a report that is
 * nonsense cannot empty or unbound the budget. Thread-safe.
 */
public final class TokenCalibration {

    static final double MIN = 0.5;
    static final double MAX = 4;
    /** The weight of the newest report. */
    private static final double WEIGHT = 0.3;

    private volatile double factor = 1;

    public double factor() {
        return factor;
    }

    /** A call's estimate against the upstream's count; ignored when either is not positive. */
    public synchronized void observe(int estimated, int reported) {
        if (estimated <= 0 || reported <= 0) {
            return;
        }
        double ratio = (double) reported / estimated;
        factor = Math.min(MAX, Math.max(MIN, factor + WEIGHT * (ratio - factor)));
    }

    /** {@code tokens} as the upstream would likely count them. */
    public int calibrated(int tokens) {
        return (int) Math.ceil(tokens * factor);
    }
}
