package dev.aguistate.samples;

import dev.aguistate.agent.AgentDefinition;
import java.time.Duration;
import java.util.Set;

/** The sample agents as the server defines them, for unit tests outside this package (no confirmations). */
public final class SampleAgentDefinitions {

    private SampleAgentDefinitions() {
    }

    public static AgentDefinition chat() {
        return new SampleAgents().chat();
    }

    public static AgentDefinition recipe() {
        return new SharedStateAgents(Set.of()).recipe();
    }

    public static AgentDefinition document() {
        return new SharedStateAgents(Set.of()).document();
    }

    public static AgentDefinition tasks() {
        return new SharedStateAgents(Set.of()).tasks(Duration.ZERO);
    }
}
