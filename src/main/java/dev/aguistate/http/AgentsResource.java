package dev.aguistate.http;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.AgentRegistry;
import dev.aguistate.llm.ModelDescription;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.tools.BackendTool;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;

/** {@code GET /agui/agents}: what this server offers, and which model answers. */
@Path("/agui/agents")
public class AgentsResource {

    /**
     * One agent: its tools are the server-side ones (clients may add their own per run); {@code confirmedTools} are
     * the ones that wait for the user's approval.
     */
    public record AgentInfo(String name, String description, boolean isDefault, List<String> tools, boolean hasState,
                            List<String> confirmedTools) {}

    /**
     * Which model answers: {@code kind} is {@code scripted-demo} when no LLM is configured and replies are canned. The
     * upstream's URL is not shown: it is an internal address (readiness, an internal endpoint, reports it).
     */
    public record ModelInfo(String kind, String provider, String model) {

        static ModelInfo of(ModelDescription description) {
            return new ModelInfo(description.kind(), description.provider(), description.model());
        }
    }

    public record AgentsList(List<AgentInfo> agents, ModelInfo model) {}

    private final AgentRegistry agents;
    private final StreamingModel model;
    private final UserResolver users;

    AgentsResource(AgentRegistry agents, StreamingModel model, UserResolver users) {
        this.agents = agents;
        this.model = model;
        this.users = users;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "List the agents, their tools and whether they keep state; and the model in use")
    @APIResponseSchema(AgentsList.class)
    public Response list(@HeaderParam("Authorization") String authorization) {
        if (users.resolve(authorization).isEmpty()) {
            return UserResolver.unauthorized().toResponse();
        }
        String defaultName = agents.defaultAgent().name();
        return Response.ok(new AgentsList(agents.all().stream().map(a -> info(a, defaultName)).toList(),
                ModelInfo.of(model.description())), MediaType.APPLICATION_JSON).build();
    }

    private static AgentInfo info(AgentDefinition agent, String defaultName) {
        return new AgentInfo(agent.name(), agent.description(), agent.name().equals(defaultName),
                List.copyOf(agent.tools().keySet()), agent.hasState(), agent.tools().values().stream()
                .filter(tool -> agent.confirmation().requires(tool)).map(BackendTool::name).sorted().toList());
    }
}
