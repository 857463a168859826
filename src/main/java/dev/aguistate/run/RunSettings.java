package dev.aguistate.run;

import dev.aguistate.state.StatePrompt;
import java.time.Duration;

/**
 * What every run of this server shares, read once from {@link RunConfig} and {@link StateConfig}.
 *
 * @param provider           the {@code provider} reported in token usage
 * @param model              the model asked for (what the spans and metrics name)
 * @param deltaInterval      predicted STATE_DELTAs are coalesced to at most one per interval
 * @param confirmationExpiry how long a confirmation waits for the user's answer
 */
record RunSettings(String provider, String model, StatePrompt statePrompt, Duration deltaInterval, ContextWindow contextWindow,
                   Duration confirmationExpiry, int maxRounds) {}
