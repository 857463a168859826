package dev.aguistate.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The connection to one MCP server, for as long as the server runs: the handshake ({@code initialize}, then
 * {@code notifications/initialized}), the tool list ({@code tools/list}, again on
 * {@code notifications/tools/list_changed}), tool calls, their progress ({@code notifications/progress}, for the
 * {@code progressToken} each call carries) and their cancellation ({@code notifications/cancelled}).
 *
 * <p>A server that cannot be reached, that fails the handshake or whose process exits is tried again after a
 * backoff (1 s, doubling to a minute); meanwhile its last tool list stays offered and its calls fail at once with the
 * reason, which readiness reports too. An HTTP server that refuses Streamable HTTP's first POST with a 4xx is spoken
 * to over the older HTTP+SSE transport.
 *
 * <p>Its state is confined to one Vert.x event-loop context: the transports report there, and calls from other
 * threads hop there; it never blocks.
 */
final class McpClient {

    private static final Logger LOG = Logger.getLogger(McpClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The protocol version asked for; the server may answer with any of {@link #SPOKEN_VERSIONS}. */
    static final String PROTOCOL_VERSION = "2025-06-18";
    private static final Set<String> SPOKEN_VERSIONS = Set.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");
    private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    private static final Duration LAST_RETRY = Duration.ofMinutes(1);
    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("mcp.method.name");
    private static final AttributeKey<String> SERVER_ID = AttributeKey.stringKey("agui.mcp.server.id");
    private static final AttributeKey<String> NETWORK = AttributeKey.stringKey("network.transport");
    private static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("jsonrpc.request.id");
    private static final AttributeKey<String> PROTOCOL = AttributeKey.stringKey("mcp.protocol.version");

    private final McpServer server;
    private final Vertx vertx;
    private final ContextInternal context;
    private final HttpClient http;
    private final Consumer<List<JsonNode>> listed;

    /** Why calls cannot be made now; null while connected. Read from any thread (readiness). */
    private volatile String problem = "not reached yet";

    /** Set by {@link #close()} on the stopping thread, so that a process is stopped before the JVM exits. */
    private volatile boolean closed;
    /** Written on the context only; read by {@link #close()}, which must not wait for the context at shutdown. */
    private volatile McpTransport transport;

    // Confined to the context:
    private boolean legacy;
    private String protocolVersion;
    private boolean ready;
    private Promise<Void> connecting;
    private int failures;
    private long retryTimer = -1;
    private long nextId = 1;
    private final Map<Long, Pending> pending = new HashMap<>();

    /** @param listed receives the server's tools (as {@code tools/list} gives them) whenever it lists them */
    McpClient(McpServer server, Vertx vertx, Consumer<List<JsonNode>> listed) {
        this.server = server;
        this.vertx = vertx;
        this.context = ((VertxInternal) vertx).createEventLoopContext();
        this.http = server.url() == null ? null : vertx.createHttpClient(new HttpClientOptions()
                .setName("agui-mcp-" + server.id())
                .setKeepAlive(true)
                .setConnectTimeout((int) Math.min(server.timeout().toMillis(), 10_000)));
        this.listed = listed;
    }

    /** Connects in the background. */
    void start() {
        context.runOnContext(v -> connect());
    }

    /** Why its tools cannot be called now, or null when they can. */
    String problem() {
        return problem;
    }

    /**
     * Calls a tool; the item is the {@code tools/call} result. Cancelling the Uni (the run stopped, or its time is
     * up) tells the server with {@code notifications/cancelled}. {@code trace} is the call's span: it gets the MCP
     * attributes, and the server gets it as {@code traceparent} in {@code _meta}.
     *
     * @param authorization the {@code Authorization} value for this call, or null
     * @param progress      receives the server's progress notifications for this call, on the client's context
     */
    Uni<JsonNode> call(String tool, JsonNode arguments, String authorization, Context trace, Progress progress) {
        ObjectNode params = JSON.createObjectNode().put("name", tool);
        params.set("arguments", arguments);
        W3CTraceContextPropagator.getInstance().inject(trace, params.putObject("_meta"), ObjectNode::put);
        Span span = Span.fromContext(trace);
        span.setAttribute(METHOD, "tools/call");
        span.setAttribute(SERVER_ID, server.id());
        return Uni.createFrom().emitter(emitter -> {
            ToolCall call = new ToolCall(emitter, span, progress);
            emitter.onTermination(() -> context.runOnContext(v -> call.cancel()));
            context.runOnContext(v -> usable().onComplete(connected -> {
                if (call.over) {
                    return;
                }
                if (connected.failed()) {
                    call.over = true;
                    emitter.fail(connected.cause());
                } else {
                    call.send(params, authorization, true);
                }
            }));
        });
    }

    /** Stops: ends the connection or process and fails what waits for an answer. */
    void close() {
        closed = true;
        McpTransport current = transport;
        if (current != null) {
            current.close(); // at once: the context may not run again once the server stops
        }
        context.runOnContext(v -> {
            ready = false;
            cancelRetry();
            dropTransport("the server is shutting down");
            if (http != null) {
                http.close();
            }
        });
    }

    // ---- the connection ----------------------------------------------------------------------------------------

    /**
     * Connected, or connecting: a call waits for that. While a failed server waits for its next try, a call fails at
     * once with why, so that calls do not restart a crashing process faster than its backoff.
     */
    private Future<Void> usable() {
        if (!ready && connecting == null && retryTimer != -1) {
            return Future.failedFuture(new McpTransport.TransportException(problem, null));
        }
        return connect();
    }

    private Future<Void> connect() {
        if (closed) {
            return Future.failedFuture(new McpTransport.TransportException("the server is shutting down", null));
        }
        if (ready) {
            return Future.succeededFuture();
        }
        if (connecting != null) {
            return connecting.future();
        }
        cancelRetry();
        Promise<Void> attempt = Promise.promise();
        connecting = attempt;
        handshake(newTransport())
                .recover(failure -> isStreamableRefused(failure) ? handshake(legacyTransport()) : Future.failedFuture(failure))
                .compose(result -> initialized(result))
                .compose(v -> listTools())
                .onComplete(done -> {
                    connecting = null;
                    if (done.succeeded()) {
                        ready = true;
                        failures = 0;
                        problem = null;
                        attempt.complete();
                    } else {
                        unreachable(message(done.cause()));
                        attempt.fail(done.cause());
                    }
                });
        return attempt.future();
    }

    /** Opens the transport and sends {@code initialize}; the item is its result. */
    private Future<JsonNode> handshake(McpTransport opened) {
        dropTransport(null);
        transport = opened;
        ObjectNode params = JSON.createObjectNode().put("protocolVersion", PROTOCOL_VERSION);
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "agui-state-server").put("version", "1");
        return opened.open(receiverFor(opened)).compose(v -> request("initialize", params));
    }

    /** Streamable HTTP's first POST refused with a 4xx other than 401/403: the server may speak only HTTP+SSE. */
    private boolean isStreamableRefused(Throwable failure) {
        if (legacy || http == null || !(failure instanceof McpTransport.TransportException refused)) {
            return false;
        }
        int status = refused.status();
        return status >= 400 && status < 500 && status != 401 && status != 403;
    }

    private Future<Void> initialized(JsonNode result) {
        String version = result.path("protocolVersion").asText(null);
        if (version == null || !SPOKEN_VERSIONS.contains(version)) {
            return Future.failedFuture(new McpTransport.TransportException("the MCP server " + server.label()
                    + " speaks protocol version " + version + ", which this server does not", null));
        }
        protocolVersion = version;
        transport.initialized(version);
        sendNotification("notifications/initialized", JSON.createObjectNode());
        return Future.succeededFuture();
    }

    private Future<Void> listTools() {
        return listPage(null, new ArrayList<>()).map(tools -> {
            LOG.infof("MCP server %s lists %d tools", server.label(), tools.size());
            listed.accept(List.copyOf(tools));
            return null;
        });
    }

    private Future<List<JsonNode>> listPage(String cursor, List<JsonNode> tools) {
        ObjectNode params = JSON.createObjectNode();
        if (cursor != null) {
            params.put("cursor", cursor);
        }
        return request("tools/list", params).compose(result -> {
            if (!result.path("tools").isArray()) {
                return Future.failedFuture(new McpTransport.TransportException("the MCP server " + server.label()
                        + " answered tools/list without a list of tools", null));
            }
            result.get("tools").forEach(tools::add);
            String next = result.path("nextCursor").textValue();
            return next == null || next.isEmpty() ? Future.succeededFuture(tools) : listPage(next, tools);
        });
    }

    private McpTransport newTransport() {
        if (server.url() == null) {
            return new StdioTransport(server, context);
        }
        return legacy ? new LegacySseTransport(server, http) : new StreamableHttpTransport(server, vertx, http);
    }

    private McpTransport legacyTransport() {
        legacy = true;
        LOG.infof("MCP server %s refused Streamable HTTP; trying the older HTTP+SSE transport", server.label());
        return newTransport();
    }

    /** The server cannot be used now: calls fail with {@code why} until a new connection succeeds, tried later. */
    private void unreachable(String why) {
        ready = false;
        problem = why;
        dropTransport(why);
        if (closed) {
            return;
        }
        failures++;
        long delay = Math.min(LAST_RETRY.toMillis(), FIRST_RETRY.toMillis() << Math.min(failures - 1, 16));
        LOG.warnf("%s; trying again in %d s", why, delay / 1000);
        cancelRetry();
        retryTimer = vertx.setTimer(delay, timer -> {
            retryTimer = -1;
            connect();
        });
    }

    private void cancelRetry() {
        if (retryTimer != -1) {
            vertx.cancelTimer(retryTimer);
            retryTimer = -1;
        }
    }

    /** Closes the current transport; what waits for its answers fails with {@code why} (none when there is none). */
    private void dropTransport(String why) {
        if (transport != null) {
            transport.close();
            transport = null;
        }
        List<Pending> waiting = new ArrayList<>(pending.values());
        pending.clear();
        waiting.forEach(p -> p.failed(new McpTransport.TransportException(
                why == null ? "the connection to the MCP server " + server.label() + " was replaced" : why, null)));
    }

    // ---- messages ----------------------------------------------------------------------------------------------

    private McpTransport.Receiver receiverFor(McpTransport owner) {
        return new McpTransport.Receiver() {
            @Override
            public void received(JsonNode message) {
                if (owner == transport) {
                    dispatch(message);
                }
            }

            @Override
            public void ended(String why) {
                if (owner == transport && !closed) {
                    unreachable(why);
                }
            }
        };
    }

    private void dispatch(JsonNode message) {
        JsonNode id = message.get("id");
        String method = message.path("method").textValue();
        if (method == null && id != null) {
            Pending waiting = id.canConvertToLong() ? pending.remove(id.asLong()) : null;
            if (waiting == null) {
                LOG.debugf("MCP server %s answered request %s, which nothing waits for", server.label(), id);
            } else if (message.has("error")) {
                JsonNode error = message.get("error");
                waiting.failed(new McpTransport.TransportException("the MCP server " + server.label()
                        + " refused the request: " + error.path("message").asText("(no message)") + " (JSON-RPC error "
                        + error.path("code").asText("?") + ")", null));
            } else if (message.has("result")) {
                waiting.answered(message.get("result"));
            } else {
                waiting.failed(HttpMessages.garbage(server.label(), null));
            }
        } else if (method != null && id != null) {
            answerServerRequest(id, method);
        } else if ("notifications/progress".equals(method)) {
            progressed(message.path("params"));
        } else if ("notifications/tools/list_changed".equals(method)) {
            if (ready) {
                listTools().onFailure(failure -> LOG.warnf("MCP server %s: listing its changed tools failed: %s",
                        server.label(), message(failure)));
            }
        } else if (method != null) {
            LOG.debugf("MCP server %s: %s", server.label(), method);
        } else {
            LOG.warnf("MCP server %s sent something that is not a JSON-RPC message; ignored", server.label());
        }
    }

    /**
     * A call's progress: {@code progress} of {@code total} (a fraction when the total is known), and the server's
     * {@code message}. The token is the call's request id; one of a call that is over is ignored.
     */
    private void progressed(JsonNode params) {
        JsonNode token = params.path("progressToken");
        if (token.canConvertToLong() && pending.get(token.asLong()) instanceof ToolCall call && !call.over) {
            double total = params.path("total").asDouble(0);
            call.progress.report(total > 0 ? params.path("progress").asDouble() / total : Double.NaN,
                    params.path("message").textValue());
        }
    }

    /** A request of the server's: a ping is answered; this client offers nothing else (no sampling, no roots). */
    private void answerServerRequest(JsonNode id, String method) {
        ObjectNode answer = JSON.createObjectNode().put("jsonrpc", "2.0");
        answer.set("id", id);
        if ("ping".equals(method)) {
            answer.putObject("result");
        } else {
            answer.putObject("error").put("code", -32601).put("message", "this client does not offer " + method);
        }
        if (transport != null) {
            transport.send(answer, null);
        }
    }

    /** A request of this client's own (handshake, listing), with the server's time limit. */
    private Future<JsonNode> request(String method, ObjectNode params) {
        McpTransport sending = transport;
        if (sending == null) {
            return Future.failedFuture(new McpTransport.TransportException(problem == null
                    ? "the connection to the MCP server " + server.label() + " is gone" : problem, null));
        }
        Promise<JsonNode> answer = Promise.promise();
        long id = nextId++;
        Pending waiting = new Pending() {
            @Override
            public void answered(JsonNode result) {
                answer.tryComplete(result);
            }

            @Override
            public void failed(Throwable failure) {
                answer.tryFail(failure);
            }
        };
        pending.put(id, waiting);
        long timer = vertx.setTimer(server.timeout().toMillis(), t -> {
            if (pending.remove(id) != null) {
                answer.tryFail(new McpTransport.TransportException("the MCP server " + server.label()
                        + " did not answer " + method + " within " + server.timeout().toMillis() + " ms", null));
            }
        });
        answer.future().onComplete(done -> vertx.cancelTimer(timer));
        McpTransport.Exchange exchange = sending.send(message(id, method, params), null);
        exchange.done().onComplete(sent -> afterExchange(sending, id, sent.cause()));
        return answer.future();
    }

    /** A sent message's exchange is over: what still waits for its answer now fails, with the exchange's cause. */
    private void afterExchange(McpTransport sending, long id, Throwable failure) {
        if (failure == null && !sending.answersInline()) {
            return;
        }
        Pending waiting = pending.remove(id);
        if (waiting != null) {
            waiting.failed(failure != null ? failure : new McpTransport.TransportException("the MCP server "
                    + server.label() + " ended its answer without a result", null));
        }
    }

    private void sendNotification(String method, ObjectNode params) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", method);
        message.set("params", params);
        transport.send(message, null);
    }

    private static ObjectNode message(long id, String method, ObjectNode params) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        message.set("params", params);
        return message;
    }

    static String message(Throwable failure) {
        return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    }

    /** Where a call's progress goes: how far it is (0 to 1, NaN when unknown) and what the server said, or null. */
    @FunctionalInterface
    interface Progress {
        void report(double fraction, String message);
    }

    /** Something waiting for the answer to a request. */
    private interface Pending {
        void answered(JsonNode result);

        void failed(Throwable failure);
    }

    /** One {@code tools/call}, confined to the context like the rest. */
    private final class ToolCall implements Pending {
        private final UniEmitter<? super JsonNode> emitter;
        private final Span span;
        private final Progress progress;
        private McpTransport sentOn;
        private long id = -1;
        private McpTransport.Exchange exchange;
        /** Answered, failed or cancelled: nothing more happens. */
        private boolean over;

        ToolCall(UniEmitter<? super JsonNode> emitter, Span span, Progress progress) {
            this.emitter = emitter;
            this.span = span;
            this.progress = progress;
        }

        /** @param retryLostSession whether a server that forgot the session (HTTP 404) gets the call again */
        void send(ObjectNode params, String authorization, boolean retryLostSession) {
            id = nextId++;
            sentOn = transport;
            pending.put(id, this);
            span.setAttribute(REQUEST_ID, Long.toString(id));
            span.setAttribute(NETWORK, sentOn.network());
            span.setAttribute(PROTOCOL, protocolVersion);
            params.with("_meta").put("progressToken", id);
            exchange = sentOn.send(message(id, "tools/call", params), authorization);
            exchange.done().onComplete(sent -> {
                if (sent.failed() && retryLostSession && pending.containsKey(id)
                        && sent.cause() instanceof McpTransport.TransportException lost && lost.status() == 404) {
                    pending.remove(id);
                    LOG.infof("MCP server %s no longer knows the session; connecting again", server.label());
                    ready = false;
                    dropTransport(null);
                    connect().onComplete(connected -> {
                        if (over) {
                            return;
                        }
                        if (connected.failed()) {
                            failed(connected.cause());
                        } else {
                            send(params, authorization, false);
                        }
                    });
                    return;
                }
                if (sent.failed() && sent.cause() instanceof McpTransport.TransportException down
                        && down.isUnreachable() && pending.containsKey(id)) {
                    unreachable(down.getMessage()); // fails this call too
                    return;
                }
                afterExchange(sentOn, id, sent.cause());
            });
        }

        @Override
        public void answered(JsonNode result) {
            if (!over) {
                over = true;
                emitter.complete(result);
            }
        }

        @Override
        public void failed(Throwable failure) {
            if (!over) {
                over = true;
                emitter.fail(failure);
            }
        }

        /** The caller gave up (a stop, a timeout): the server is told, and the answer's own connection closed. */
        void cancel() {
            if (over) {
                return;
            }
            over = true;
            if (id != -1 && pending.remove(id) != null && sentOn == transport && transport != null) {
                ObjectNode params = JSON.createObjectNode().put("requestId", id)
                        .put("reason", "the caller no longer waits for the result");
                sendNotification("notifications/cancelled", params);
                exchange.abort();
            }
        }
    }
}
