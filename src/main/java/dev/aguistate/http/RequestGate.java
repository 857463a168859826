package dev.aguistate.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.agent.AgentRegistry;
import dev.aguistate.protocol.InvalidRunInput;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.RunAgentInputReader;
import dev.aguistate.run.RunOptions;
import dev.aguistate.run.RunRejected;
import dev.aguistate.session.Caller;
import dev.aguistate.session.SessionRefused;
import io.quarkus.runtime.Startup;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * What a request to a run endpoint passes before anything acts on it, whichever route received it (the AG-UI routes
 * and CopilotKit's alike): who is calling ({@link UserResolver}), its media types, its body read within the size and
 * time limits, and every refusal answered as a JSON {@link ErrorBody} before any stream opens.
 */
@ApplicationScoped
@Startup
public class RequestGate {

    private static final Logger LOG = Logger.getLogger(RequestGate.class);

    private final UserResolver users;
    private final AgentRegistry agents;
    private final HttpConfig config;
    /** {@code agui.http.root}, which the errors' paths are under. */
    private final BasePath root;
    private final PendingBodies pending;
    private final Vertx vertx;

    RequestGate(UserResolver users, AgentRegistry agents, HttpConfig config, PendingBodies pending, Vertx vertx) {
        this.users = users;
        this.agents = agents;
        this.config = config;
        this.root = BasePath.root(config);
        this.pending = pending;
        this.vertx = vertx;
    }

    /** Calls {@code then}, on the request's context, with the request's caller, or answers 401. */
    public void authorized(RoutingContext ctx, Consumer<Caller> then) {
        Context context = vertx.getOrCreateContext();
        users.resolve(ctx.request().getHeader("Authorization")).subscribe().with(
                caller -> context.runOnContext(v -> caller.ifPresentOrElse(then,
                        () -> reject(ctx, UserResolver.unauthorized()))),
                failure -> context.runOnContext(v -> ctx.fail(failure)));
    }

    /**
     * Reads the body of a run or connect request for the named agent: the {@code Content-Type}, the {@code Accept}
     * and the agent are checked before the body is read (415, 406, 404), then the body is read as by
     * {@link #readBody}.
     */
    public void readStreamBody(RoutingContext ctx, String agentName, Consumer<byte[]> then) {
        Optional<ErrorBody> refused = notJson(ctx.request()).or(() -> refusedStream(ctx.request(), agentName));
        if (refused.isPresent()) {
            reject(ctx, refused.get());
        } else {
            readBody(ctx, then);
        }
    }

    /** Reads a JSON body within the run endpoints' limits, or answers 415, 413 or 408. */
    public void readJsonBody(RoutingContext ctx, Consumer<byte[]> then) {
        Optional<ErrorBody> refused = notJson(ctx.request());
        if (refused.isPresent()) {
            reject(ctx, refused.get());
        } else {
            readBody(ctx, then);
        }
    }

    /** What is wrong with a request for a stream from the named agent, apart from its body: 406 or 404. */
    public Optional<ErrorBody> refusedStream(HttpServerRequest request, String agentName) {
        if (!accepts(request.getHeader("Accept"), "text/event-stream")) {
            return Optional.of(new ErrorBody(406, "not_acceptable",
                    "the response is an event stream; the Accept header must allow text/event-stream"));
        }
        return agents.find(agentName).isPresent() ? Optional.empty()
                : Optional.of(ErrorBody.unknownAgent(root, agentName));
    }

    /**
     * The run input the body holds, with its {@code forwardedProps} options read, or empty once the request was
     * answered 400 or 422 naming what is wrong.
     */
    public Optional<RunRequest> runInput(RoutingContext ctx, byte[] body) {
        return runInput(ctx, () -> RunAgentInputReader.read(body));
    }

    /**
     * The run input inside a document read by {@link RunAgentInputReader#readTree}, or empty once the request was
     * answered 422 naming what is wrong.
     */
    public Optional<RunRequest> runInput(RoutingContext ctx, JsonNode input) {
        return runInput(ctx, () -> RunAgentInputReader.read(input));
    }

    private static Optional<RunRequest> runInput(RoutingContext ctx, Supplier<RunAgentInput> reading) {
        try {
            RunAgentInput input = reading.get();
            return Optional.of(new RunRequest(input, RunOptions.of(input)));
        } catch (InvalidRunInput invalid) {
            reject(ctx, invalidInput(invalid));
            return Optional.empty();
        }
    }

    /** Not JSON by the reader's rules is 400 {@code malformed_json}; JSON whose values break them 422. */
    public static ErrorBody invalidInput(InvalidRunInput invalid) {
        return invalid.malformedJson()
                ? new ErrorBody(400, "malformed_json", invalid.getMessage())
                : new ErrorBody(422, "invalid_run_input", invalid.getMessage());
    }

    /**
     * Answers why the session refused or the run was rejected; a refusal that says when to ask again says it in
     * {@code Retry-After}.
     */
    public static void refuse(RoutingContext ctx, Throwable failure) {
        if (failure instanceof SessionRefused refused) {
            refused.retryAfter().ifPresent(wait -> ctx.response().putHeader("Retry-After",
                    Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000))));
        }
        reject(ctx, refusal(failure));
    }

    /** The answer to a session's refusal or a rejected run; any other failure is the store's, answered 503. */
    public static ErrorBody refusal(Throwable failure) {
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
                case SERVER_AT_RUN_LIMIT -> new ErrorBody(429, "server_at_run_limit", refused.getMessage());
                case RATE_LIMITED -> new ErrorBody(429, "rate_limited", refused.getMessage());
                case QUEUE_FULL -> new ErrorBody(429, "queue_full", refused.getMessage());
            };
        }
        LOG.warn("the thread store failed while starting a run", failure);
        return ErrorBody.STORE_UNAVAILABLE;
    }

    /**
     * Reads the body up to the configured size limit and time limit; a larger one gets 413, one that has not
     * arrived in time 408, one that the server cannot hold while it arrives ({@link PendingBodies}) 429 or 503, all
     * without reading the rest.
     */
    public void readBody(RoutingContext ctx, Consumer<byte[]> onBody) {
        HttpServerRequest request = ctx.request();
        int limit = config.maxRequestBytes();
        String contentLength = request.getHeader("Content-Length");
        if (HttpErrors.announcesMoreThan(contentLength, limit)) {
            refuseUnread(ctx, tooLarge(limit));
            return;
        }
        BodyBuffer body = new BodyBuffer(limit, announcedLength(contentLength));
        PendingBodies.Share share = pending.open(String.valueOf(clientAddress(request)));
        boolean[] rejected = {false};
        // A client that never completes its body would otherwise hold the connection and its body's memory until
        // quarkus.http.idle-timeout, and could keep doing so with a byte now and then.
        Duration timeout = config.requestBodyTimeout();
        long deadline = vertx.setTimer(timeout.toMillis(), id -> {
            if (!rejected[0]) {
                rejected[0] = true;
                share.release();
                // Closed once answered: the header alone does not end it, Vert.x would wait for the rest of the body.
                refuseUnread(ctx, new ErrorBody(408, "request_timeout", "the run request's body did not arrive within "
                        + timeout.toMillis() + " ms (agui.http.request-body-timeout)"))
                        .onComplete(answered -> request.connection().close());
            }
        });
        Consumer<ErrorBody> refuse = error -> {
            if (rejected[0]) {
                return;
            }
            rejected[0] = true;
            vertx.cancelTimer(deadline);
            share.release();
            refuseUnread(ctx, error).onComplete(answered -> request.connection().close());
        };
        Context context = vertx.getOrCreateContext();
        share.onEvicted(() -> context.runOnContext(v -> refuse.accept(PendingBodies.EVICTED)));
        request.handler(chunk -> {
            if (rejected[0]) {
                return;
            }
            int growth = body.growthFor(chunk);
            Optional<ErrorBody> refused = growth < 0 ? Optional.of(tooLarge(limit)) : share.take(growth);
            if (refused.isPresent()) {
                refuse.accept(refused.get());
            } else {
                body.append(chunk);
            }
        });
        request.endHandler(v -> {
            vertx.cancelTimer(deadline);
            if (!rejected[0]) {
                rejected[0] = true; // whole: nothing refuses it any more, not an eviction already on its way
                try {
                    onBody.accept(body.bytes());
                } catch (RuntimeException e) {
                    ctx.fail(e); // a bug, answered with a 500 by HttpErrors rather than a request left hanging
                } finally {
                    share.release();
                }
            }
        });
        request.exceptionHandler(e -> {
            vertx.cancelTimer(deadline);
            rejected[0] = true;
            share.release();
        });
        request.resume();
    }

    /** The announced {@code Content-Length}, when it is a number no larger than an int; else -1. */
    private static int announcedLength(String contentLength) {
        return contentLength != null && contentLength.matches("[0-9]{1,9}") ? Integer.parseInt(contentLength) : -1;
    }

    private static String clientAddress(HttpServerRequest request) {
        return request.remoteAddress() == null ? "unknown" : request.remoteAddress().host();
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

    private static Optional<ErrorBody> notJson(HttpServerRequest request) {
        return isJson(request.getHeader("Content-Type")) ? Optional.empty()
                : Optional.of(new ErrorBody(415, "unsupported_media_type",
                        "send the request as Content-Type: application/json"));
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return mediaType.equals("application/json") || (mediaType.startsWith("application/") && mediaType.endsWith("+json"));
    }

    /** True unless the Accept header lists media ranges and none of them (with q > 0) covers {@code mediaType}. */
    static boolean accepts(String accept, String mediaType) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        String anySubtype = mediaType.substring(0, mediaType.indexOf('/')) + "/*";
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String mediaRange = parts[0].trim().toLowerCase(Locale.ROOT);
            if (!(mediaRange.equals(mediaType) || mediaRange.equals(anySubtype) || mediaRange.equals("*/*"))) {
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
