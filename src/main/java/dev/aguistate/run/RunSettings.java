package dev.aguistate.run;

import dev.aguistate.state.DeltaPacing;
import dev.aguistate.state.StatePrompt;
import java.time.Duration;

/**
 * What every run of this server shares, read once from {@link RunConfig} and {@link StateConfig}.
 *
 * @param provider           the {@code provider} reported in token usage
 * @param deltaPacing        how predicted STATE_DELTAs are coalesced
 * @param confirmationExpiry how long a confirmation waits for the user's answer
 */
record RunSettings(String provider, StatePrompt statePrompt, DeltaPacing deltaPacing, ContextWindow contextWindow,
                   Duration confirmationExpiry, int maxRounds) {}
