package dev.aguistate.run;

import dev.aguistate.run.request.ContextWindow;
import dev.aguistate.run.request.CountedUnits;
import dev.aguistate.run.request.TokenBudget;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.llm.TokenCalibration;
import dev.aguistate.llm.TokenEstimator;
import dev.aguistate.state.DeltaPacing;
import dev.aguistate.state.StatePrompt;
import java.time.Duration;

/**
 * What every run of this server shares, read once from {@link RunConfig} and {@link StateConfig}.
 *
 * @param provider           the {@code provider} reported in token usage
 * @param model              the model asked for (what the spans and metrics name)
 * @param deltaPacing        how predicted STATE_DELTAs are coalesced
 * @param confirmationExpiry how long a confirmation waits for the user's answer
 * @param maxInputTokens     the input budget of agents that set none; 0 for none
 * @param estimator          counts tokens for the model
 * @param calibration        how the estimates compare with what the upstream reports, shared by all runs
 * @param counted            token counts of conversation units, shared by all runs
 */
record RunSettings(String provider, String model, StatePrompt statePrompt, DeltaPacing deltaPacing, ContextWindow contextWindow,
                   Duration confirmationExpiry, int maxRounds, int maxInputTokens, TokenEstimator estimator,
                   TokenCalibration calibration, CountedUnits counted) {

    /** The agent's own budget, else the server's. */
    TokenBudget budgetFor(AgentDefinition agent) {
        int max = agent.maxInputTokens() != null ? agent.maxInputTokens() : maxInputTokens;
        return max > 0 ? new TokenBudget(max, estimator, calibration, counted) : TokenBudget.NONE;
    }
}
