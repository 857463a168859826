package dev.aguistate.run.request;

import dev.aguistate.agent.AgentDefinition;

/** What one LLM call of a run is for; decided once, when the round starts. */
public enum RoundKind {

    /** A two-phase agent's first call: the model writes the complete new state as structured output. */
    STATE_OUTPUT,
    /** A two-phase agent's second call: a short summary of the change, with no tools. */
    SUMMARY,
    /** The usual call: the agent's and the client's tools are offered. */
    TOOLS;

    /** @param round the round's number, from 1 */
    public static RoundKind of(AgentDefinition agent, int round) {
        if (!agent.twoPhaseState()) {
            return TOOLS;
        }
        return round == 1 ? STATE_OUTPUT : SUMMARY;
    }
}
