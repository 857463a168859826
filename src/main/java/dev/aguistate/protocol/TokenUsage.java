package dev.aguistate.protocol;

/** Token counts reported on RUN_FINISHED / RUN_ERROR; every field is optional. */
public record TokenUsage(String provider, String model, Integer inputTokens, Integer outputTokens, Integer totalTokens,
                         Integer reasoningTokens, Integer cachedInputTokens) {}
