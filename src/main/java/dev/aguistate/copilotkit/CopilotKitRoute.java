package dev.aguistate.copilotkit;

import dev.aguistate.session.Caller;
import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.AgentRegistry;
import dev.aguistate.http.AgentCapabilities;
import dev.aguistate.http.BasePath;
import dev.aguistate.http.ErrorBody;
import dev.aguistate.http.HttpConfig;
import dev.aguistate.http.HttpErrors;
import dev.aguistate.http.RequestGate;
import dev.aguistate.http.RunEndpoints;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.InvalidRunInput;
import dev.aguistate.protocol.RunAgentInputReader;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * CopilotKit's runtime endpoints (its v2 router, {@code fetch-router.ts}), under {@code agui.copilotkit.base-path}
 * ({@code {agui.http.root}/copilotkit} by default): a CopilotKit app sets its {@code runtimeUrl} here and needs no Node
 * runtime. An adapter over the AG-UI endpoints: runs, connections and stops go through {@link RunEndpoints} (the same
 * checks, errors, user and streams as {@code /agui/{agent}}), threads through the thread store.
 * <ul>
 *   <li>{@code GET {base}/info}: the agents with their descriptions and AG-UI capabilities;</li>
 *   <li>{@code POST {base}/agent/{agent}/run}, {@code …/connect}: as {@code POST /agui/{agent}} and
 *       {@code /agui/{agent}/connect};</li>
 *   <li>{@code POST {base}/agent/{agent}/stop/{threadId}} (body {@code {"runId"}}, optional): CopilotKit's answer,
 *       {@code {"stopped":true}} or {@code {"stopped":false,"message":…}};</li>
 *   <li>{@code {base}/threads…}: {@link CopilotKitThreads};</li>
 *   <li>{@code POST {base}}: the single route, one envelope {@code {"method","params","body"}} for all of the above,
 *       which CopilotKit's client falls back to when {@code /info} does not answer.</li>
 * </ul>
 */
@ApplicationScoped
public class CopilotKitRoute {

    /** What {@code RuntimeInfo.agents[].className} says serves an agent. */
    private static final String AGENT_CLASS = "AgUiStateServerAgent";
    private static final RuntimeInfo.ThreadEndpoints THREAD_ENDPOINTS =
            new RuntimeInfo.ThreadEndpoints(true, true, true, false);

    private final CopilotKitConfig config;
    private final RunEndpoints runs;
    private final RequestGate gate;
    private final CopilotKitThreads threads;
    private final AgentRegistry agents;
    private final AgentCapabilities.ServerLimits limits;
    private final String version;
    private final BasePath root;

    CopilotKitRoute(CopilotKitConfig config, HttpConfig http, RunEndpoints runs, RequestGate gate,
                    CopilotKitThreads threads, AgentRegistry agents, AgentCapabilities.ServerLimits limits,
                    @ConfigProperty(name = "quarkus.application.version", defaultValue = "dev") String version) {
        this.config = config;
        this.root = BasePath.root(http);
        this.runs = runs;
        this.gate = gate;
        this.threads = threads;
        this.agents = agents;
        this.limits = limits;
        this.version = version;
    }

    void register(@Observes Router router) {
        if (!config.enabled()) {
            return;
        }
        String base = basePath();
        router.get(base + "/info").handler(ctx -> gate.authorized(ctx, caller -> json(ctx, info(false))));
        router.post(base + "/agent/:agent/run").handler(ctx ->
                runs.stream(ctx, RunEndpoints.Stream.RUN, ctx.pathParam("agent")));
        router.post(base + "/agent/:agent/connect").handler(ctx ->
                runs.stream(ctx, RunEndpoints.Stream.CONNECT, ctx.pathParam("agent")));
        router.post(base + "/agent/:agent/stop/:threadId").handler(ctx -> gate.authorized(ctx, caller ->
                gate.readBody(ctx, body -> stop(ctx, caller, ctx.pathParam("agent"), ctx.pathParam("threadId"), body))));
        router.route(base + "/threads*").handler(ctx -> gate.authorized(ctx, caller -> gate.readBody(ctx, body ->
                threadRequest(ctx, caller, ctx.request().uri().substring(base.length()), body))));
        router.post(base).handler(this::singleRoute);
        router.route(base + "/info").last().handler(HttpErrors.allowOnly(HttpMethod.GET));
        for (String path : new String[] {base, base + "/agent/:agent/run",
                base + "/agent/:agent/connect", base + "/agent/:agent/stop/:threadId"}) {
            router.route(path).last().handler(HttpErrors.allowOnly(HttpMethod.POST));
        }
    }

    /**
     * The base path: under {@code agui.http.root} unless it is absolute.
     *
     * @throws IllegalStateException for a base path where CopilotKit's routes and the server's would hide each other:
     *                               the root itself (CopilotKit's {@code /threads}), a path within the root's
     *                               {@code /agui} or {@code /threads}, or one that holds the root
     */
    private String basePath() {
        BasePath base = root.resolve("agui.copilotkit.base-path", config.basePath());
        if (base.contains(root) || new BasePath(root.path("/agui")).contains(base)
                || new BasePath(root.path("/threads")).contains(base)) {
            throw new IllegalStateException("agui.copilotkit.base-path is " + base + " and agui.http.root " + root
                    + ": CopilotKit's endpoints and the server's would hide each other; keep CopilotKit's beside "
                    + root.path("/agui") + " and " + root.path("/threads") + ", e.g. " + root.path("/copilotkit"));
        }
        return base.prefix();
    }

    private RuntimeInfo info(boolean singleRoute) {
        Map<String, RuntimeInfo.AgentDescription> described = new LinkedHashMap<>();
        for (AgentDefinition agent : agents.all()) {
            described.put(agent.name(), new RuntimeInfo.AgentDescription(agent.name(), agent.description(),
                    AGENT_CLASS, AgentCapabilities.of(agent, limits)));
        }
        return new RuntimeInfo(version, described, false, "sse", THREAD_ENDPOINTS, false, false, false, true,
                singleRoute ? new RuntimeInfo.SingleRoute(true, THREAD_ENDPOINTS) : null);
    }

    /**
     * The stop, answered as CopilotKit's runtime does but without its {@code interrupt}: the stopped run's stream ends
     * with {@code RUN_FINISHED} {@code outcome: cancelled} (as on {@code /agui}), not with a {@code RUN_ERROR}.
     */
    private void stop(RoutingContext ctx, Caller caller, String agent, String threadId, JsonNode body) {
        if (body != null && !body.isNull() && (!body.isObject()
                || (body.has("runId") && !body.get("runId").isTextual()))) {
            RequestGate.reject(ctx, new ErrorBody(400, "invalid_request",
                    "the stop's body is {\"runId\": \"<the run to stop>\"}, or nothing"));
            return;
        }
        Optional<String> runId = body == null ? Optional.empty() : Optional.ofNullable(body.path("runId").textValue());
        runs.stop(ctx, caller, agent, threadId, runId, (stopped, thread) -> stopped ? "{\"stopped\":true}"
                : AgUiJson.write(Map.of("stopped", false, "message", "No active run for thread '" + thread + "'.")));
    }

    /** {@code POST {base}} with {@code {"method","params","body"}}: CopilotKit's single-endpoint transport. */
    private void singleRoute(RoutingContext ctx) {
        gate.authorized(ctx, caller -> gate.readJsonBody(ctx, raw -> {
            SingleRouteCall call;
            try {
                call = SingleRouteCall.parse(raw);
            } catch (InvalidRunInput invalid) {
                RequestGate.reject(ctx, RequestGate.invalidInput(invalid));
                return;
            } catch (IllegalArgumentException invalid) {
                RequestGate.reject(ctx, new ErrorBody(400, "invalid_request", invalid.getMessage()));
                return;
            }
            if (call instanceof SingleRouteCall.Stream stream) {
                runs.stream(ctx, caller, stream.kind(), stream.agentId(), stream.input());
            } else if (call instanceof SingleRouteCall.Stop stop) {
                stop(ctx, caller, stop.agentId(), stop.threadId(), stop.body());
            } else if (call instanceof SingleRouteCall.Resource resource) {
                threads.handle(ctx, caller, resource.httpMethod(), resource.path(), resource.body());
            } else {
                json(ctx, info(true));
            }
        }));
    }

    /** A thread request with its optional body. */
    private void threadRequest(RoutingContext ctx, Caller caller, String resource, byte[] body) {
        withOptionalJson(ctx, body, parsed -> threads.handle(ctx, caller, ctx.request().method().name(), resource,
                parsed));
    }

    /** A stop's optional body. */
    private void stop(RoutingContext ctx, Caller caller, String agent, String threadId, byte[] body) {
        withOptionalJson(ctx, body, parsed -> stop(ctx, caller, agent, threadId, parsed));
    }

    /** An optional body (null when empty), read by the run input's rules: not JSON is a 400. */
    private static void withOptionalJson(RoutingContext ctx, byte[] body, Consumer<JsonNode> then) {
        JsonNode parsed;
        try {
            parsed = body.length == 0 ? null : RunAgentInputReader.readTree(body);
        } catch (InvalidRunInput invalid) {
            RequestGate.reject(ctx, RequestGate.invalidInput(invalid));
            return;
        }
        then.accept(parsed);
    }

    static void json(RoutingContext ctx, Object body) {
        ctx.response().setStatusCode(200).putHeader("Content-Type", "application/json")
                .putHeader("Cache-Control", "no-store").end(AgUiJson.write(body));
    }
}
