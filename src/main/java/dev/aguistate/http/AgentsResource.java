package dev.aguistate.http;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.AgentRegistry;
import dev.aguistate.llm.ModelDescription;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.tools.BackendTool;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** {@code GET /agui/agents}: what this server offers, and which model answers. */
@Path("/agui/agents")
public class AgentsResource {

    /**
     * One agent: its tools are the server-side ones (clients may add their own per run); {@code confirmedTools} are
     * the ones that wait for the user's approval.
     */
    public record AgentInfo(String name, String description, boolean isDefault, List<String> tools, boolean hasState,
                            List<String> confirmedTools) {}

    /** {@code model.kind} is {@code scripted-demo} when no LLM is configured and replies are canned. */
    public record AgentsList(List<AgentInfo> agents, ModelDescription model) {}

    private final AgentRegistry agents;
    private final StreamingModel model;

    AgentsResource(AgentRegistry agents, StreamingModel model) {
        this.agents = agents;
        this.model = model;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "List the agents, their tools and whether they keep state; and the model in use")
    public AgentsList list() {
        String defaultName = agents.defaultAgent().name();
        return new AgentsList(agents.all().stream().map(a -> info(a, defaultName)).toList(), model.description());
    }

    private static AgentInfo info(AgentDefinition agent, String defaultName) {
        return new AgentInfo(agent.name(), agent.description(), agent.name().equals(defaultName),
                List.copyOf(agent.tools().keySet()), agent.hasState(), agent.tools().values().stream()
                .filter(tool -> agent.confirmation().requires(tool)).map(BackendTool::name).sorted().toList());
    }
}
