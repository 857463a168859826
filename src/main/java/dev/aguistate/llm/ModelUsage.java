package dev.aguistate.llm;

/** Token counts of one model response; any count may be null when the upstream omits it. */
public record ModelUsage(String model, Integer inputTokens, Integer outputTokens, Integer totalTokens) {}
