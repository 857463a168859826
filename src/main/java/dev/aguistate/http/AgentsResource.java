package dev.aguistate.http;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.AgentRegistry;
import dev.aguistate.llm.ModelDescription;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.tools.BackendTool;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;

/**
 * {@code GET /agui/agents}: what this server offers, and which model answers; {@code GET /agui/{agent}/capabilities}:
 * one agent's AG-UI {@link AgentCapabilities}.
 */
@Path("/agui")
public class AgentsResource {

    /**
     * One agent: its tools are the server-side ones (clients may add their own per run); {@code confirmedTools} are
     * the ones that wait for the user's approval; {@code capabilities} is what {@code GET /agui/{agent}/capabilities}
     * answers.
     */
    public record AgentInfo(String name, String description, boolean isDefault, List<String> tools, boolean hasState,
                            List<String> confirmedTools, AgentCapabilities capabilities) {}

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
    private final AgentCapabilities.ServerLimits limits;

    AgentsResource(AgentRegistry agents, StreamingModel model, UserResolver users,
                   AgentCapabilities.ServerLimits limits) {
        this.agents = agents;
        this.model = model;
        this.users = users;
        this.limits = limits;
    }

    @GET
    @Path("/agents")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "List the agents, their tools and whether they keep state; and the model in use")
    @APIResponseSchema(AgentsList.class)
    public Uni<Response> list(@HeaderParam("Authorization") String authorization) {
        return authorized(authorization, () -> {
            String defaultName = agents.defaultAgent().map(AgentDefinition::name).orElse(null);
            return Response.ok(new AgentsList(agents.all().stream().map(a -> info(a, defaultName)).toList(),
                    ModelInfo.of(model.description())), MediaType.APPLICATION_JSON).build();
        });
    }

    @GET
    @Path("/{agent}/capabilities")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "One agent's AG-UI AgentCapabilities: its tools, state, human-in-the-loop, transport, identity")
    @APIResponseSchema(AgentCapabilities.class)
    public Uni<Response> capabilities(@HeaderParam("Authorization") String authorization,
                                      @PathParam("agent") String name) {
        return authorized(authorization, () -> agents.find(name)
                .map(agent -> Response.ok(AgentCapabilities.of(agent, limits), MediaType.APPLICATION_JSON).build())
                .orElseGet(() -> ErrorBody.unknownAgent(name).toResponse()));
    }

    /** The answer for a caller the header proves (the listing is the same for every caller), else 401. */
    private Uni<Response> authorized(String authorization, Supplier<Response> answer) {
        return users.resolve(authorization).map(caller -> caller.isPresent() ? answer.get()
                : UserResolver.unauthorized().toResponse());
    }

    private AgentInfo info(AgentDefinition agent, String defaultName) {
        Map<String, BackendTool> tools = agent.currentTools(); // an MCP server's list may change meanwhile
        return new AgentInfo(agent.name(), agent.description(), agent.name().equals(defaultName),
                List.copyOf(tools.keySet()), agent.hasState(), tools.values().stream()
                .filter(tool -> agent.confirmation().requires(tool)).map(BackendTool::name).sorted().toList(),
                AgentCapabilities.of(agent, limits));
    }
}
