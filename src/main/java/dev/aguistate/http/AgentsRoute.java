package dev.aguistate.http;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.AgentRegistry;
import dev.aguistate.llm.ModelDescription;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.http.JsonEndpoints.Answer;
import dev.aguistate.session.Caller;
import dev.aguistate.tools.BackendTool;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /agui/agents}: what this server offers, and which model answers; {@code GET /agui/{agent}/capabilities}:
 * one agent's AG-UI {@link AgentCapabilities}.
 */
@ApplicationScoped
public class AgentsRoute {

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
    private final AgentCapabilities.ServerLimits limits;
    private final JsonEndpoints endpoints;
    private final BasePath root;

    AgentsRoute(AgentRegistry agents, StreamingModel model, AgentCapabilities.ServerLimits limits,
                JsonEndpoints endpoints, HttpConfig config) {
        this.agents = agents;
        this.model = model;
        this.limits = limits;
        this.endpoints = endpoints;
        this.root = BasePath.root(config);
    }

    /**
     * Before {@link RunRoute}'s routes (a lower priority is observed first): {@code /agui/agents} matches
     * {@code /agui/:agent} as well, and a method neither serves must be answered with this path's {@code Allow}.
     */
    void register(@Observes @Priority(Interceptor.Priority.APPLICATION) Router router) {
        endpoints.serve(router, root.path("/agui/agents"), Map.of(HttpMethod.GET, this::list));
        endpoints.serve(router, root.path("/agui/:agent/capabilities"), Map.of(HttpMethod.GET, this::capabilities));
    }

    /** The listing is the same for every caller. */
    private Uni<Answer> list(RoutingContext ctx, Caller caller) {
        String defaultName = agents.defaultAgent().map(AgentDefinition::name).orElse(null);
        return Uni.createFrom().item(new Answer.Ok(new AgentsList(agents.all().stream()
                .map(a -> info(a, defaultName)).toList(), ModelInfo.of(model.description()))));
    }

    private Uni<Answer> capabilities(RoutingContext ctx, Caller caller) {
        String name = ctx.pathParam("agent");
        return Uni.createFrom().item(agents.find(name)
                .<Answer>map(agent -> new Answer.Ok(AgentCapabilities.of(agent, limits)))
                .orElseGet(() -> new Answer.Refused(ErrorBody.unknownAgent(root, name))));
    }

    private AgentInfo info(AgentDefinition agent, String defaultName) {
        Map<String, BackendTool> tools = agent.currentTools(); // an MCP server's list may change meanwhile
        return new AgentInfo(agent.name(), agent.description(), agent.name().equals(defaultName),
                List.copyOf(tools.keySet()), agent.hasState(), tools.values().stream()
                .filter(tool -> agent.confirmation().requires(tool)).map(BackendTool::name).sorted().toList(),
                AgentCapabilities.of(agent, limits));
    }
}
