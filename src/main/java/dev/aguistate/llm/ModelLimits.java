package dev.aguistate.llm;

import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/**
 * How many tokens a known OpenAI model takes in one request, input and output together, and the most it writes.
 * Names are matched by their longest known prefix, so {@code gpt-4o-2024-08-06} is {@code gpt-4o}; a model
 * served elsewhere under its own name (Ollama, vLLM) is unknown and needs {@code agui.run.context.max-input-tokens}.
 *
 * @param contextWindow input and output tokens together
 * @param maxOutput     the most output tokens one response may have
 */
public record ModelLimits(int contextWindow, int maxOutput) {

    private static final Map<String, ModelLimits> KNOWN = Map.ofEntries(
            Map.entry("gpt-3.5-turbo", new ModelLimits(16_385, 4_096)),
            Map.entry("gpt-4", new ModelLimits(8_192, 8_192)),
            Map.entry("gpt-4-turbo", new ModelLimits(128_000, 4_096)),
            Map.entry("gpt-4o", new ModelLimits(128_000, 16_384)),
            Map.entry("chatgpt-4o", new ModelLimits(128_000, 16_384)),
            Map.entry("gpt-4.1", new ModelLimits(1_047_576, 32_768)),
            Map.entry("gpt-5", new ModelLimits(400_000, 128_000)),
            Map.entry("o1", new ModelLimits(200_000, 100_000)),
            Map.entry("o3", new ModelLimits(200_000, 100_000)),
            Map.entry("o4-mini", new ModelLimits(200_000, 100_000)));

    /** What is kept free besides the output: the estimate's error before calibration has learnt it. */
    static final double MARGIN = 0.05;

    public static Optional<ModelLimits> of(String model) {
        return KNOWN.keySet().stream().filter(model::startsWith).max(Comparator.comparingInt(String::length))
                .map(KNOWN::get);
    }

    /**
     * The input budget: the window less the output ({@code maxOutputTokens} when configured, else the model's most)
     * and a margin of {@value #MARGIN} of the window.
     */
    public int inputBudget(Integer maxOutputTokens) {
        int output = maxOutputTokens != null ? maxOutputTokens : maxOutput;
        return Math.max(0, contextWindow - output - (int) (contextWindow * MARGIN));
    }
}
