package dev.aguistate.http;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.AgentRegistry;
import dev.aguistate.protocol.ClientProtocol;
import dev.aguistate.protocol.InvalidRunInput;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.RunAgentInputReader;
import dev.aguistate.protocol.IdRules;
import dev.aguistate.run.RunOptions;
import dev.aguistate.run.RunRejected;
import dev.aguistate.session.Caller;
import dev.aguistate.session.Cursor;
import dev.aguistate.session.LiveRuns;
import dev.aguistate.session.RunConnections;
import dev.aguistate.session.SessionRefused;
import io.smallrye.mutiny.Multi;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

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
public class RunRoute {

    private static final Logger LOG = Logger.getLogger(RunRoute.class);

    private final AgentRegistry agents;
    private final LiveRuns runs;
    private final RunConnections connections;
    private final UserResolver users;
    private final HttpConfig config;
    private final Vertx vertx;

    RunRoute(AgentRegistry agents, LiveRuns runs, RunConnections connections, UserResolver users, HttpConfig config,
             Vertx vertx) {
        this.agents = agents;
        this.runs = runs;
        this.connections = connections;
        this.users = users;
        this.config = config;
        this.vertx = vertx;
    }

    void register(@Observes Router router) {
        router.post("/agui").handler(ctx -> stream(ctx, Stream.RUN, agents.defaultAgent().name()));
        router.post("/agui/:agent").handler(ctx -> stream(ctx, Stream.RUN, ctx.pathParam("agent")));
        router.post("/agui/:agent/connect").handler(ctx -> stream(ctx, Stream.CONNECT, ctx.pathParam("agent")));
        router.post("/agui/:agent/stop/:threadId").handler(ctx -> authorized(ctx, caller -> stop(ctx, caller,
                ctx.pathParam("agent"), ctx.pathParam("threadId"), Optional.empty(), StopAnswer.AG_UI)));
        // After everything else (GET /agui/agents is a resource): any other method on a run path is a 405.
        for (String path : List.of("/agui", "/agui/:agent", "/agui/:agent/connect", "/agui/:agent/stop/:threadId")) {
            router.route(path).last().handler(HttpErrors.allowOnly(HttpMethod.POST));
        }
    }

    /** What a streaming request asks for: a new run, or a connection to the thread's runs. */
    public enum Stream { RUN, CONNECT }

    /** The JSON body of a stop's answer, from whether a live run was asked to stop. */
    @FunctionalInterface
    public interface StopAnswer {

        /** {@code {"stopped":true}} or {@code {"stopped":false}}. */
        StopAnswer AG_UI = (stopped, threadId) -> "{\"stopped\":" + stopped + "}";

        String body(boolean stopped, String threadId);
    }

    /**
     * A run or connect request whose agent the route names: the user, {@code Content-Type}, {@code Accept} and the
     * agent are checked before the body is read, then the body is read within the limits and the stream opens.
     */
    public void stream(RoutingContext ctx, Stream kind, String agentName) {
        authorized(ctx, caller -> {
            Optional<ErrorBody> refused = notJson(ctx.request())
                    .or(() -> refusedStream(ctx.request(), agentName));
            if (refused.isPresent()) {
                reject(ctx, refused.get());
            } else {
                readBody(ctx, body -> stream(ctx, caller, kind, agentName, body.getBytes()));
            }
        });
    }

    /**
     * A run or connect request whose input arrived some other way (inside an envelope the caller read with
     * {@link #readJsonBody}): the checks that concern the stream, then the input parsed, then the stream.
     */
    public void stream(RoutingContext ctx, Caller caller, Stream kind, String agentName, byte[] input) {
        Optional<ErrorBody> refused = refusedStream(ctx.request(), agentName);
        if (refused.isPresent()) {
            reject(ctx, refused.get());
            return;
        }
        RunAgentInput parsed;
        RunOptions options;
        try {
            parsed = RunAgentInputReader.read(input);
            options = RunOptions.of(parsed);
        } catch (InvalidRunInput invalid) {
            reject(ctx, invalid.malformedJson()
                    ? new ErrorBody(400, "malformed_json", invalid.getMessage())
                    : new ErrorBody(422, "invalid_run_input", invalid.getMessage()));
            return;
        }
        AgentDefinition agent = agents.find(agentName).orElseThrow();
        switch (kind) {
            // The run's span joins the request's trace (an incoming traceparent, through the HTTP server's span),
            // taken here, on the request's context, and handed to the run explicitly: it goes on across threads.
            case RUN -> start(ctx, caller, agent, parsed, options, io.opentelemetry.context.Context.current());
            case CONNECT -> connect(ctx, caller, agent, parsed, options);
        }
    }

    /** Calls {@code then}, on the request's context, with the request's caller, or answers 401. */
    public void authorized(RoutingContext ctx, Consumer<Caller> then) {
        Context context = vertx.getOrCreateContext();
        users.resolve(ctx.request().getHeader("Authorization")).subscribe().with(
                caller -> context.runOnContext(v -> caller.ifPresentOrElse(then,
                        () -> reject(ctx, UserResolver.unauthorized()))),
                failure -> context.runOnContext(v -> ctx.fail(failure)));
    }

    /** Reads a JSON body within the run endpoints' limits, or answers 415, 413 or 408. */
    public void readJsonBody(RoutingContext ctx, Consumer<Buffer> then) {
        Optional<ErrorBody> refused = notJson(ctx.request());
        if (refused.isPresent()) {
            reject(ctx, refused.get());
        } else {
            readBody(ctx, then);
        }
    }

    private static Optional<ErrorBody> notJson(HttpServerRequest request) {
        return isJson(request.getHeader("Content-Type")) ? Optional.empty()
                : Optional.of(new ErrorBody(415, "unsupported_media_type",
                        "send the request as Content-Type: application/json"));
    }

    private Optional<ErrorBody> refusedStream(HttpServerRequest request, String agentName) {
        if (!acceptsEventStream(request.getHeader("Accept"))) {
            return Optional.of(new ErrorBody(406, "not_acceptable",
                    "the response is an event stream; the Accept header must allow text/event-stream"));
        }
        return agents.find(agentName).isPresent() ? Optional.empty() : Optional.of(ErrorBody.unknownAgent(agentName));
    }

    private void start(RoutingContext ctx, Caller caller, AgentDefinition agent, RunAgentInput input,
                       RunOptions options, io.opentelemetry.context.Context traceParent) {
        Context context = vertx.getOrCreateContext();
        runs.open(caller, agent, input, options, traceParent).subscribe().with(
                frames -> context.runOnContext(v -> write(ctx, context, input, frames)),
                failure -> context.runOnContext(v -> refuse(ctx, failure)));
    }

    /** The client's cursor is the {@code Last-Event-ID} header, else {@code forwardedProps.lastSeenEventId}. */
    private void connect(RoutingContext ctx, Caller caller, AgentDefinition agent, RunAgentInput input,
                         RunOptions options) {
        String lastEventId = ctx.request().getHeader("Last-Event-ID");
        Context context = vertx.getOrCreateContext();
        connections.connect(caller, agent, input, Cursor.parse(lastEventId != null ? lastEventId
                        : options.lastSeenEventId()))
                .subscribe().with(frames -> context.runOnContext(v -> write(ctx, context, input, frames)),
                        failure -> context.runOnContext(v -> refuse(ctx, failure)));
    }

    /**
     * Asks the thread's live run to stop, on whichever replica runs it; with {@code runId}, only if that is the live
     * run. Answers 200 with {@code answer}'s body.
     */
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
                    failure -> context.runOnContext(v -> refuse(ctx, failure)));
        }
    }

    /** Answers why the session refused; a refusal that says when to ask again says it in {@code Retry-After}. */
    private static void refuse(RoutingContext ctx, Throwable failure) {
        if (failure instanceof SessionRefused refused) {
            refused.retryAfter().ifPresent(wait -> ctx.response().putHeader("Retry-After",
                    Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000))));
        }
        reject(ctx, refusal(failure));
    }

    private static ErrorBody refusal(Throwable failure) {
        if (failure instanceof RunRejected rejected) {
            return new ErrorBody(422, rejected.code(), rejected.getMessage());
        }
        if (failure instanceof SessionRefused refused) {
            return switch (refused.reason()) {
                case THREAD_NOT_FOUND -> new ErrorBody(404, "thread_not_found", refused.getMessage());
                case THREAD_BUSY -> new ErrorBody(409, "thread_busy", refused.getMessage());
                case THREAD_OF_ANOTHER_AGENT -> new ErrorBody(409, "thread_agent_mismatch", refused.getMessage());
                case MESSAGES_REFUSED -> new ErrorBody(422, "invalid_messages", refused.getMessage());
                case TOO_MANY_RUNS -> new ErrorBody(429, "too_many_runs", refused.getMessage());
                case SERVER_BUSY -> new ErrorBody(429, "server_busy", refused.getMessage());
                case RATE_LIMITED -> new ErrorBody(429, "rate_limited", refused.getMessage());
            };
        }
        LOG.warn("the thread store failed while starting a run", failure);
        return ErrorBody.STORE_UNAVAILABLE;
    }

    /** Streams the frames to the client that sent {@code input}, shaped for the AG-UI version it speaks. */
    private void write(RoutingContext ctx, Context context, RunAgentInput input, Multi<byte[]> frames) {
        EventStreamWriter writer = new EventStreamWriter(vertx, context, ctx.response(), config.keepAlive(),
                ClientProtocol.of(input.protocolVersion()));
        writer.open();
        frames.subscribe().withSubscriber(writer);
    }

    /**
     * Reads the body up to the configured size limit and time limit; a larger one gets 413, one that has not
     * arrived in time 408, both without reading the rest.
     */
    public void readBody(RoutingContext ctx, Consumer<Buffer> onBody) {
        HttpServerRequest request = ctx.request();
        int limit = config.maxRequestBytes();
        if (HttpErrors.announcesMoreThan(request.getHeader("Content-Length"), limit)) {
            refuseUnread(ctx, tooLarge(limit));
            return;
        }
        Buffer body = Buffer.buffer();
        boolean[] rejected = {false};
        // A client that never completes its body would otherwise hold the connection and up to `limit` bytes of
        // heap until quarkus.http.idle-timeout (30 minutes), and could keep doing so with a byte now and then.
        Duration timeout = config.requestBodyTimeout();
        long deadline = vertx.setTimer(timeout.toMillis(), id -> {
            if (!rejected[0]) {
                rejected[0] = true;
                // Closed once answered: the header alone does not end it, Vert.x would wait for the rest of the body.
                refuseUnread(ctx, new ErrorBody(408, "request_timeout", "the run request's body did not arrive within "
                        + timeout.toMillis() + " ms (agui.http.request-body-timeout)"))
                        .onComplete(answered -> request.connection().close());
            }
        });
        request.handler(chunk -> {
            if (rejected[0]) {
                return;
            }
            if (body.length() + chunk.length() > limit) {
                rejected[0] = true;
                vertx.cancelTimer(deadline);
                refuseUnread(ctx, tooLarge(limit));
            } else {
                body.appendBuffer(chunk);
            }
        });
        request.endHandler(v -> {
            vertx.cancelTimer(deadline);
            if (!rejected[0]) {
                try {
                    onBody.accept(body);
                } catch (RuntimeException e) {
                    ctx.fail(e); // a bug, answered with a 500 by HttpErrors rather than a request left hanging
                }
            }
        });
        request.exceptionHandler(e -> {
            vertx.cancelTimer(deadline);
            rejected[0] = true;
        });
        request.resume();
    }

    private static ErrorBody tooLarge(int limit) {
        return new ErrorBody(413, "request_too_large",
                "the run request is larger than " + limit + " bytes (agui.http.max-request-bytes)");
    }

    /** Answers a request whose body is not read to the end; the connection closes after the answer. */
    private static Future<Void> refuseUnread(RoutingContext ctx, ErrorBody error) {
        ctx.response().putHeader("Connection", "close");
        return error.send(ctx.response());
    }

    /** Answers with the error, before any stream. */
    public static void reject(RoutingContext ctx, ErrorBody error) {
        error.send(ctx.response());
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return mediaType.equals("application/json") || (mediaType.startsWith("application/") && mediaType.endsWith("+json"));
    }

    /** True unless the Accept header lists media ranges and none of them (with q > 0) covers text/event-stream. */
    static boolean acceptsEventStream(String accept) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String mediaRange = parts[0].trim().toLowerCase(Locale.ROOT);
            if (!(mediaRange.equals("text/event-stream") || mediaRange.equals("text/*") || mediaRange.equals("*/*"))) {
                continue;
            }
            boolean excluded = false;
            for (int i = 1; i < parts.length; i++) {
                String param = parts[i].trim().toLowerCase(Locale.ROOT);
                if (param.startsWith("q=")) {
                    try {
                        excluded = Double.parseDouble(param.substring(2)) <= 0;
                    } catch (NumberFormatException e) {
                        excluded = false;
                    }
                }
            }
            if (!excluded) {
                return true;
            }
        }
        return false;
    }
}
