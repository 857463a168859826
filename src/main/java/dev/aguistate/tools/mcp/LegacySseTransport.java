package dev.aguistate.tools.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.URI;

/**
 * MCP's older HTTP+SSE transport (protocol 2024-11-05), for servers that have nothing newer: a GET on the server's
 * URL opens an event stream whose first event, {@code endpoint}, names where to POST messages; every answer comes on
 * that stream. Chosen when the server refuses Streamable HTTP's first POST with a 4xx, as the specification advises.
 */
final class LegacySseTransport implements McpTransport {

    private final McpServer server;
    private final HttpClient http;
    private HttpClientRequest stream;
    private URI postTo;

    LegacySseTransport(McpServer server, HttpClient http) {
        this.server = server;
        this.http = http;
    }

    @Override
    public Future<Void> open(Receiver receiver) {
        Promise<Void> opened = Promise.promise();
        RequestOptions options = options(HttpMethod.GET, server.url(), null).putHeader("Accept", "text/event-stream");
        http.request(options).onComplete(obtained -> {
            if (obtained.failed()) {
                opened.fail(TransportException.unreachable("the MCP server " + server.label() + " cannot be reached: "
                        + obtained.cause().getMessage(), obtained.cause()));
                return;
            }
            stream = obtained.result();
            stream.send().onComplete(answered -> {
                if (answered.failed()) {
                    opened.tryFail(HttpMessages.lost(server.label(), answered.cause()));
                    return;
                }
                HttpClientResponse response = answered.result();
                if (response.statusCode() != 200 || !HttpMessages.isEventStream(response)) {
                    Promise<Void> refused = Promise.promise();
                    HttpMessages.describeError(response, refused, server.label());
                    refused.future().onFailure(opened::tryFail);
                    return;
                }
                Promise<Void> ended = Promise.promise();
                HttpMessages.readEvents(response, event -> {
                    if (!"endpoint".equals(event.event())) {
                        return false;
                    }
                    postTo = server.url().resolve(event.data().strip());
                    opened.tryComplete();
                    return true;
                }, receiver::received, ended, server.label());
                ended.future().onComplete(end -> {
                    String why = end.failed() ? end.cause().getMessage()
                            : "the MCP server " + server.label() + " closed its event stream";
                    opened.tryFail(new TransportException(why, end.cause()));
                    receiver.ended(why);
                });
            });
        });
        return opened.future();
    }

    @Override
    public Exchange send(ObjectNode message, String authorization) {
        Promise<Void> done = Promise.promise();
        RequestOptions options = options(HttpMethod.POST, postTo, authorization)
                .putHeader("Content-Type", "application/json");
        http.request(options)
                .compose(request -> request.send(Buffer.buffer(message.toString())))
                .onComplete(answered -> {
                    if (answered.failed()) {
                        done.fail(TransportException.unreachable("the MCP server " + server.label() + " cannot be reached: "
                                + answered.cause().getMessage(), answered.cause()));
                    } else if (answered.result().statusCode() / 100 != 2) {
                        HttpMessages.describeError(answered.result(), done, server.label());
                    } else {
                        answered.result().body().onComplete(ignored -> done.tryComplete());
                    }
                });
        return Exchange.sent(done.future());
    }

    @Override
    public boolean answersInline() {
        return false;
    }

    @Override
    public void initialized(String protocolVersion) {
        // this transport names no version in its requests
    }

    @Override
    public String network() {
        return "tcp";
    }

    @Override
    public void close() {
        if (stream != null) {
            stream.reset();
        }
    }

    private RequestOptions options(HttpMethod method, URI uri, String authorization) {
        RequestOptions options = new RequestOptions().setMethod(method).setAbsoluteURI(uri.toString());
        server.headers().forEach(options::putHeader);
        if (authorization != null) {
            options.putHeader("Authorization", authorization);
        }
        return options;
    }
}
