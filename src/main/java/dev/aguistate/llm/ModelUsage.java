package dev.aguistate.llm;

/**
 * Token counts of one model response; any count may be null when the upstream omits it. As in AG-UI 1.0's
 * accounting, {@code cachedInputTokens} is a part of {@code inputTokens} and {@code reasoningTokens} a part of
 * {@code outputTokens}, never additions to them.
 */
public record ModelUsage(String model, Integer inputTokens, Integer outputTokens, Integer totalTokens,
                         Integer cachedInputTokens, Integer reasoningTokens) {

    /** A response whose upstream reported no breakdown of its counts. */
    public ModelUsage(String model, Integer inputTokens, Integer outputTokens, Integer totalTokens) {
        this(model, inputTokens, outputTokens, totalTokens, null, null);
    }
}
