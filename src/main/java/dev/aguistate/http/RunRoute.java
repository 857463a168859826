package dev.aguistate.http;

import static dev.aguistate.http.RequestGate.reject;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.AgentRegistry;
import dev.aguistate.protocol.ClientProtocol;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.IdRules;
import dev.aguistate.session.Caller;
import dev.aguistate.session.LiveRuns;
import dev.aguistate.session.RunConnections;
import dev.aguistate.session.Cursor;
import io.smallrye.mutiny.Multi;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Optional;

/**
 * {@code POST /agui} (the default agent) and {@code POST /agui/{agent}}: a run request in, an SSE event stream out;
 * {@code POST /agui/{agent}/connect}: the thread's live run joined or resumed from a cursor, or the thread
 * restated; {@code POST /agui/{agent}/stop/{threadId}}: the thread's live run stopped, on whichever replica.
 *
 * <p>A plain Vert.x route rather than a JAX-RS resource, because the wire contract needs byte-exact frames
 * ({@code data: <json>\n\n}), a flush per event, keep-alive comments, a streaming body-size limit and the
 * client's disconnect — each of which the JAX-RS SSE writer hides. Everything that can be wrong with the request
 * is answered with a 4xx JSON body before the stream opens; after that, failures are {@code RUN_ERROR} events.
 */
@ApplicationScoped
public class RunRoute implements RunEndpoints {

    private final AgentRegistry agents;
    private final LiveRuns runs;
    private final RunConnections connections;
    private final RequestGate gate;
    private final HttpConfig config;
    private final Vertx vertx;
    private final BasePath root;

    RunRoute(AgentRegistry agents, LiveRuns runs, RunConnections connections, RequestGate gate, HttpConfig config,
             Vertx vertx) {
        this.agents = agents;
        this.runs = runs;
        this.connections = connections;
        this.gate = gate;
        this.config = config;
        this.vertx = vertx;
        this.root = BasePath.root(config);
    }

    void register(@Observes Router router) {
        String agui = root.path("/agui");
        router.post(agui).handler(ctx -> agents.defaultAgent().ifPresentOrElse(
                agent -> stream(ctx, Stream.RUN, agent.name()),
                () -> gate.authorized(ctx, caller -> reject(ctx, ErrorBody.noDefaultAgent(root)))));
        router.post(agui + "/:agent").handler(ctx -> stream(ctx, Stream.RUN, ctx.pathParam("agent")));
        router.post(agui + "/:agent/connect").handler(ctx -> stream(ctx, Stream.CONNECT, ctx.pathParam("agent")));
        // ?runId= stops only that run: the live one, or one that waits for the thread (multitask: enqueue)
        router.post(agui + "/:agent/stop/:threadId").handler(ctx -> gate.authorized(ctx, caller -> stop(ctx, caller,
                ctx.pathParam("agent"), ctx.pathParam("threadId"), Optional.ofNullable(ctx.queryParams().get("runId")),
                StopAnswer.AG_UI)));
        // After everything else (GET /agui/agents is AgentsRoute's): any other method on a run path is a 405.
        for (String path : List.of("", "/:agent", "/:agent/connect", "/:agent/stop/:threadId")) {
            router.route(agui + path).last().handler(HttpErrors.allowOnly(HttpMethod.POST));
        }
    }

    /**
     * A run or connect request whose agent the route names: the request passes the gate (user, {@code Content-Type},
     * {@code Accept}, agent, then the body within its limits), then the stream opens.
     */
    @Override
    public void stream(RoutingContext ctx, Stream kind, String agentName) {
        gate.authorized(ctx, caller -> gate.readStreamBody(ctx, agentName, body -> gate.runInput(ctx, body)
                .ifPresent(request -> stream(ctx, caller, kind, agents.find(agentName).orElseThrow(), request))));
    }

    @Override
    public void stream(RoutingContext ctx, Caller caller, Stream kind, String agentName, JsonNode input) {
        Optional<ErrorBody> refused = gate.refusedStream(ctx.request(), agentName);
        if (refused.isPresent()) {
            reject(ctx, refused.get());
            return;
        }
        gate.runInput(ctx, input)
                .ifPresent(request -> stream(ctx, caller, kind, agents.find(agentName).orElseThrow(), request));
    }

    private void stream(RoutingContext ctx, Caller caller, Stream kind, AgentDefinition agent, RunRequest request) {
        switch (kind) {
            // The run's span joins the request's trace (an incoming traceparent, through the HTTP server's span),
            // taken here, on the request's context, and handed to the run explicitly: it goes on across threads.
            case RUN -> start(ctx, caller, agent, request, io.opentelemetry.context.Context.current());
            case CONNECT -> connect(ctx, caller, agent, request);
        }
    }

    private void start(RoutingContext ctx, Caller caller, AgentDefinition agent, RunRequest request,
                       io.opentelemetry.context.Context traceParent) {
        Context context = vertx.getOrCreateContext();
        runs.open(caller, agent, request.input(), request.options(), traceParent).subscribe().with(
                frames -> context.runOnContext(v -> write(ctx, context, request.input(), frames)),
                failure -> context.runOnContext(v -> RequestGate.refuse(ctx, failure)));
    }

    /** The client's cursor is the {@code Last-Event-ID} header, else {@code forwardedProps.lastSeenEventId}. */
    private void connect(RoutingContext ctx, Caller caller, AgentDefinition agent, RunRequest request) {
        String lastEventId = ctx.request().getHeader("Last-Event-ID");
        Context context = vertx.getOrCreateContext();
        connections.connect(caller, agent, request.input(), Cursor.parse(lastEventId != null ? lastEventId
                        : request.options().lastSeenEventId()))
                .subscribe().with(frames -> context.runOnContext(v -> write(ctx, context, request.input(), frames)),
                        failure -> context.runOnContext(v -> RequestGate.refuse(ctx, failure)));
    }

    /**
     * Asks the thread's live run to stop, on whichever replica runs it; with {@code runId}, only if that is the live
     * run. Answers 200 with {@code answer}'s body.
     */
    @Override
    public void stop(RoutingContext ctx, Caller caller, String agentName, String threadId, Optional<String> runId,
                     StopAnswer answer) {
        Optional<AgentDefinition> agent = agents.find(agentName);
        if (agent.isEmpty()) {
            reject(ctx, ErrorBody.unknownAgent(root, agentName));
        } else if (IdRules.violation(threadId).isPresent()) {
            reject(ctx, new ErrorBody(422, "invalid_thread_id", "threadId " + IdRules.violation(threadId).get()));
        } else {
            Context context = vertx.getOrCreateContext();
            connections.stop(caller, agent.get(), threadId, runId).subscribe().with(
                    stopped -> context.runOnContext(v -> ctx.response().setStatusCode(200)
                            .putHeader("Content-Type", "application/json")
                            .end(answer.body(stopped, threadId))),
                    failure -> context.runOnContext(v -> RequestGate.refuse(ctx, failure)));
        }
    }

    /** Streams the frames to the client that sent {@code input}, shaped for the AG-UI version it speaks. */
    private void write(RoutingContext ctx, Context context, RunAgentInput input, Multi<byte[]> frames) {
        EventStreamWriter writer = new EventStreamWriter(vertx, context, ctx.response(), config.keepAlive(),
                ClientProtocol.of(input.protocolVersion()));
        OneBufferChunks.install(ctx.request());
        writer.open();
        frames.subscribe().withSubscriber(writer);
    }
}
