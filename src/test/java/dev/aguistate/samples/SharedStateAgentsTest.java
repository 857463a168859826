package dev.aguistate.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.ConfirmationMessages;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** agui.samples.require-confirmation turns each sample's confirmation on or off, with the sample's own wording. */
@Execution(ExecutionMode.CONCURRENT)
class SharedStateAgentsTest {

    @Test
    void listedSamplesAskBeforeTheirStateToolRuns() {
        SharedStateAgents samples = new SharedStateAgents(Set.of("recipe", "tasks"));

        assertConfirms(samples.recipe(), "update_recipe", ConfirmationMessages.RECIPE);
        assertConfirms(samples.tasks(Duration.ZERO), "execute_steps", ConfirmationMessages.TASK_PLANNING);
        assertFalse(samples.document().confirmation().enabled());
    }

    @Test
    void noneTurnsEveryConfirmationOff() {
        SharedStateAgents samples = new SharedStateAgents(Set.of("none"));

        assertFalse(samples.recipe().confirmation().enabled());
        assertFalse(samples.document().confirmation().enabled());
        assertFalse(samples.tasks(Duration.ZERO).confirmation().enabled());
    }

    private static void assertConfirms(AgentDefinition agent, String tool, ConfirmationMessages messages) {
        assertTrue(agent.confirmation().requires(agent.tool(tool).orElseThrow()), agent.name());
        assertEquals(messages, agent.confirmation().messages());
    }
}
