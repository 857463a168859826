package dev.aguistate.http;

import static dev.aguistate.http.RequestGate.reject;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.AgentRegistry;
import dev.aguistate.protocol.ClientProtocol;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.run.PredictedDeltas;
import dev.aguistate.agent.OnDisconnect;
import dev.aguistate.protocol.IdRules;
import dev.aguistate.run.RunRejected;
import dev.aguistate.session.Caller;
import dev.aguistate.session.LiveRuns;
import dev.aguistate.session.RunConnections;
import dev.aguistate.session.ThreadSession;
import dev.aguistate.session.ThreadSessions;
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
    private final ThreadSessions threads;
    private final HttpConfig config;
    private final Vertx vertx;

    RunRoute(AgentRegistry agents, LiveRuns runs, RunConnections connections, RequestGate gate,
             ThreadSessions threads, HttpConfig config, Vertx vertx) {
        this.agents = agents;
        this.runs = runs;
        this.connections = connections;
        this.gate = gate;
        this.threads = threads;
        this.config = config;
        this.vertx = vertx;
    }

    void register(@Observes Router router) {
        router.post("/agui").handler(ctx -> stream(ctx, Stream.RUN, agents.defaultAgent().name()));
        router.post("/agui/:agent").handler(ctx -> stream(ctx, Stream.RUN, ctx.pathParam("agent")));
        router.post("/agui/:agent/connect").handler(ctx -> stream(ctx, Stream.CONNECT, ctx.pathParam("agent")));
        router.post("/agui/:agent/stop/:threadId").handler(ctx -> gate.authorized(ctx, caller -> stop(ctx, caller,
                ctx.pathParam("agent"), ctx.pathParam("threadId"), Optional.empty(), StopAnswer.AG_UI)));
        // After everything else (GET /agui/agents is a resource): any other method on a run path is a 405.
        for (String path : List.of("/agui", "/agui/:agent", "/agui/:agent/connect", "/agui/:agent/stop/:threadId")) {
            router.route(path).last().handler(HttpErrors.allowOnly(HttpMethod.POST));
        }
    }

    /**
     * A run or connect request whose agent the route names: the request passes the gate (user, {@code Content-Type},
     * {@code Accept}, agent, then the body within its limits), then the stream opens.
     */
    @Override
    public void stream(RoutingContext ctx, Stream kind, String agentName) {
        gate.authorized(ctx, caller -> gate.readStreamBody(ctx, agentName, body -> gate.runInput(ctx, body)
                .ifPresent(input -> stream(ctx, caller, kind, agents.find(agentName).orElseThrow(), input))));
    }

    @Override
    public void stream(RoutingContext ctx, Caller caller, Stream kind, String agentName, JsonNode input) {
        Optional<ErrorBody> refused = gate.refusedStream(ctx.request(), agentName);
        if (refused.isPresent()) {
            reject(ctx, refused.get());
            return;
        }
        gate.runInput(ctx, input)
                .ifPresent(parsed -> stream(ctx, caller, kind, agents.find(agentName).orElseThrow(), parsed));
    }

    private void stream(RoutingContext ctx, Caller caller, Stream kind, AgentDefinition agent, RunAgentInput input) {
        switch (kind) {
            // The run's span joins the request's trace (an incoming traceparent, through the HTTP server's span),
            // taken here, on the request's context, and handed to the run explicitly: it goes on across threads.
            case RUN -> start(ctx, caller, agent, input, io.opentelemetry.context.Context.current());
            case CONNECT -> connect(ctx, caller, agent, input);
        }
    }

    private void start(RoutingContext ctx, Caller caller, AgentDefinition agent, RunAgentInput input,
                       io.opentelemetry.context.Context traceParent) {
        OnDisconnect onDisconnect;
        try {
            onDisconnect = StreamRequests.onDisconnect(input).orElse(null);
            PredictedDeltas.wanted(input); // refused here, before the stream opens; the run reads it again
        } catch (IllegalArgumentException invalid) {
            reject(ctx, new ErrorBody(422, "invalid_run_input", invalid.getMessage()));
            return;
        }
        Context context = vertx.getOrCreateContext();
        threads.open(caller, agent, input).subscribe().with(
                session -> context.runOnContext(v -> stream(ctx, context, agent, session, onDisconnect, traceParent)),
                failure -> context.runOnContext(v -> reject(ctx, RequestGate.refusal(failure))));
    }

    private void connect(RoutingContext ctx, Caller caller, AgentDefinition agent, RunAgentInput input) {
        Context context = vertx.getOrCreateContext();
        connections.connect(caller, agent, input, StreamRequests.cursor(ctx.request().getHeader("Last-Event-ID"), input))
                .subscribe().with(frames -> context.runOnContext(v -> write(ctx, context, input, frames)),
                        failure -> context.runOnContext(v -> reject(ctx, RequestGate.refusal(failure))));
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
            reject(ctx, ErrorBody.unknownAgent(agentName));
        } else if (IdRules.violation(threadId).isPresent()) {
            reject(ctx, new ErrorBody(422, "invalid_thread_id", "threadId " + IdRules.violation(threadId).get()));
        } else {
            Context context = vertx.getOrCreateContext();
            connections.stop(caller, agent.get(), threadId, runId).subscribe().with(
                    stopped -> context.runOnContext(v -> ctx.response().setStatusCode(200)
                            .putHeader("Content-Type", "application/json")
                            .end(answer.body(stopped, threadId))),
                    failure -> context.runOnContext(v -> reject(ctx, RequestGate.refusal(failure))));
        }
    }

    /** Starts a claimed run and streams it to the client that asked for it. */
    private void stream(RoutingContext ctx, Context context, AgentDefinition agent, ThreadSession session,
                        OnDisconnect onDisconnect, io.opentelemetry.context.Context traceParent) {
        Multi<byte[]> frames;
        try {
            frames = runs.start(agent, session, onDisconnect, traceParent);
        } catch (RunRejected rejected) {
            reject(ctx, new ErrorBody(422, rejected.code(), rejected.getMessage()));
            return;
        }
        write(ctx, context, session.start().input(), frames);
    }

    /** Streams the frames to the client that sent {@code input}, shaped for the AG-UI version it speaks. */
    private void write(RoutingContext ctx, Context context, RunAgentInput input, Multi<byte[]> frames) {
        EventStreamWriter writer = new EventStreamWriter(vertx, context, ctx.response(), config.keepAlive(),
                ClientProtocol.of(input.protocolVersion()));
        writer.open();
        frames.subscribe().withSubscriber(writer);
    }
}
