package dev.aguistate.health;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.AgentRegistry;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness names each tool source that cannot be used now (an MCP server that is down, whose process keeps exiting,
 * or that fails its handshake) with the reason, as {@code <agent>/<source>}. It stays UP: such a server fails only its
 * own tool calls, as tool errors the LLM sees, and every replica would see it down alike, so taking this one out of a
 * load balancer would help nobody. A deployment check that insists on its MCP servers reads {@code unreachable}.
 */
@Readiness
public class ToolSourcesReadinessCheck implements HealthCheck {

    private final AgentRegistry agents;

    ToolSourcesReadinessCheck(AgentRegistry agents) {
        this.agents = agents;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("tool-sources").up();
        int unreachable = 0;
        for (AgentDefinition agent : agents.all()) {
            for (var source : agent.toolSources()) {
                var problem = source.problem();
                if (problem.isPresent()) {
                    unreachable++;
                    response.withData(agent.name() + "/" + source.id(), problem.get());
                }
            }
        }
        return response.withData("unreachable", unreachable).build();
    }
}
