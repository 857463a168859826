package dev.aguistate.tools.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import org.jboss.logging.Logger;

/**
 * MCP's Streamable HTTP transport: every message is a POST to the server's URL, answered with JSON, an event stream
 * of messages, or 202 for a notification; the session the server names in {@code Mcp-Session-Id} goes with each
 * later request. A GET on the same URL opens the stream of the server's own notifications (the tool list changed),
 * reopened while the session lasts; a server without one answers 405.
 */
final class StreamableHttpTransport implements McpTransport {

    private static final Logger LOG = Logger.getLogger(StreamableHttpTransport.class);
    private static final long REOPEN_MILLIS = 1_000;

    private final McpServer server;
    private final Vertx vertx;
    private final HttpClient http;
    private Receiver receiver;
    private String sessionId;
    private String protocolVersion;
    private HttpClientRequest notifications;
    private boolean closed;

    StreamableHttpTransport(McpServer server, Vertx vertx, HttpClient http) {
        this.server = server;
        this.vertx = vertx;
        this.http = http;
    }

    @Override
    public Future<Void> open(Receiver messages) {
        this.receiver = messages;
        return Future.succeededFuture();
    }

    @Override
    public Exchange send(ObjectNode message, String authorization) {
        boolean initialize = "initialize".equals(message.path("method").asText());
        RequestOptions options = options(HttpMethod.POST, authorization)
                .putHeader("Content-Type", "application/json")
                .putHeader("Accept", "application/json, text/event-stream");
        Promise<Void> done = Promise.promise();
        HttpExchange exchange = new HttpExchange(done);
        http.request(options).onComplete(obtained -> {
            if (obtained.failed()) {
                done.tryFail(TransportException.unreachable("the MCP server " + server.label() + " cannot be reached: "
                        + obtained.cause().getMessage(), obtained.cause()));
                return;
            }
            exchange.request = obtained.result();
            obtained.result().send(Buffer.buffer(message.toString())).onComplete(answered -> {
                if (answered.failed()) {
                    done.tryFail(HttpMessages.lost(server.label(), answered.cause()));
                    return;
                }
                HttpClientResponse response = answered.result();
                if (initialize && response.getHeader("Mcp-Session-Id") != null) {
                    sessionId = response.getHeader("Mcp-Session-Id");
                }
                read(response, done);
            });
        });
        return exchange;
    }

    private void read(HttpClientResponse response, Promise<Void> done) {
        int status = response.statusCode();
        if (status == 202 || status == 204) {
            response.body().onComplete(ignored -> done.tryComplete());
        } else if (status < 200 || status > 299) {
            HttpMessages.describeError(response, done, server.label());
        } else if (HttpMessages.isEventStream(response)) {
            HttpMessages.readEvents(response, event -> false, receiver::received, done, server.label());
        } else if (HttpMessages.isJson(response)) {
            HttpMessages.readJson(response, receiver::received, done, server.label());
        } else {
            response.request().reset();
            done.tryFail(new TransportException("the MCP server " + server.label() + " answered with content type "
                    + response.getHeader("Content-Type") + ", not JSON or an event stream", null));
        }
    }

    @Override
    public boolean answersInline() {
        return true;
    }

    @Override
    public void initialized(String version) {
        this.protocolVersion = version;
        openNotifications();
    }

    /** The stream of the server's own messages; reopened after it ends, unless the server has none (405). */
    private void openNotifications() {
        if (closed) {
            return;
        }
        http.request(options(HttpMethod.GET, null).putHeader("Accept", "text/event-stream")).onComplete(obtained -> {
            if (obtained.failed() || closed) {
                return;
            }
            notifications = obtained.result();
            notifications.send().onComplete(answered -> {
                if (answered.failed()) {
                    reopenLater();
                    return;
                }
                HttpClientResponse response = answered.result();
                if (response.statusCode() == 405 || !HttpMessages.isEventStream(response)) {
                    LOG.debugf("MCP server %s keeps no notification stream (HTTP %d)", server.label(),
                            response.statusCode());
                    response.body();
                    return;
                }
                Promise<Void> ended = Promise.promise();
                HttpMessages.readEvents(response, event -> false, receiver::received, ended, server.label());
                ended.future().onComplete(end -> reopenLater());
            });
        });
    }

    private void reopenLater() {
        if (!closed) {
            vertx.setTimer(REOPEN_MILLIS, timer -> openNotifications());
        }
    }

    @Override
    public String network() {
        return "tcp";
    }

    @Override
    public void close() {
        closed = true;
        if (notifications != null) {
            notifications.reset();
        }
        if (sessionId != null) {
            // ends the session on the server; nothing waits for it
            http.request(options(HttpMethod.DELETE, null))
                    .compose(HttpClientRequest::send)
                    .onComplete(ended -> { });
        }
    }

    private RequestOptions options(HttpMethod method, String authorization) {
        RequestOptions options = new RequestOptions().setMethod(method).setAbsoluteURI(server.url().toString());
        server.headers().forEach(options::putHeader);
        if (authorization != null) {
            options.putHeader("Authorization", authorization);
        }
        if (sessionId != null) {
            options.putHeader("Mcp-Session-Id", sessionId);
        }
        if (protocolVersion != null) {
            options.putHeader("MCP-Protocol-Version", protocolVersion);
        }
        return options;
    }

    /** One POST; aborting it closes its connection, which ends an event stream the server is still writing. */
    private static final class HttpExchange implements Exchange {
        private final Promise<Void> done;
        private HttpClientRequest request;

        HttpExchange(Promise<Void> done) {
            this.done = done;
        }

        @Override
        public Future<Void> done() {
            return done.future();
        }

        @Override
        public void abort() {
            if (request != null && !done.future().isComplete()) {
                request.reset();
            }
        }
    }
}
