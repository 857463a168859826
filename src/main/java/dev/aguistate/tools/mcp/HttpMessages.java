package dev.aguistate.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aguistate.sse.SseDecoder;
import dev.langchain4j.http.client.sse.ServerSentEvent;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Reads the JSON-RPC messages of one HTTP response of an MCP server: a JSON body (one message, or a batch) or an
 * event stream whose events are messages. Bounded: a body past {@link #MAX_BODY_BYTES} or an event past the
 * decoder's limit fails the exchange, as does anything that is not JSON.
 */
final class HttpMessages {

    static final int MAX_BODY_BYTES = 16 * 1024 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpMessages() {}

    static boolean isEventStream(HttpClientResponse response) {
        String type = response.getHeader("Content-Type");
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
    }

    static boolean isJson(HttpClientResponse response) {
        String type = response.getHeader("Content-Type");
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("application/json");
    }

    /**
     * Reads a JSON body; its messages go to {@code sink}. {@code done} completes once they are delivered, or fails
     * with what was wrong.
     */
    static void readJson(HttpClientResponse response, Consumer<JsonNode> sink, Promise<Void> done, String server) {
        Buffer body = Buffer.buffer();
        response.handler(chunk -> {
            if (body.length() + chunk.length() > MAX_BODY_BYTES) {
                done.tryFail(new McpTransport.TransportException("the MCP server " + server
                        + " answered with more than " + MAX_BODY_BYTES + " bytes", null));
                response.request().reset();
            } else {
                body.appendBuffer(chunk);
            }
        });
        response.exceptionHandler(failure -> done.tryFail(lost(server, failure)));
        response.endHandler(end -> {
            if (done.future().isComplete()) {
                return;
            }
            JsonNode message;
            try {
                message = JSON.readTree(body.getBytes());
            } catch (IOException e) {
                done.tryFail(garbage(server, e));
                return;
            }
            deliver(message, sink);
            done.tryComplete();
        });
    }

    /**
     * Reads an event stream whose events are messages; {@code done} completes when it ends (or fails when it breaks
     * or carries something that is not JSON). {@code onEvent} sees every event, also those that are not messages
     * (the legacy transport's {@code endpoint}); it answers whether it took the event itself.
     */
    static void readEvents(HttpClientResponse response, EventHandler onEvent, Consumer<JsonNode> sink,
                           Promise<Void> done, String server) {
        SseDecoder decoder = new SseDecoder();
        response.handler(chunk -> {
            if (done.future().isComplete()) {
                return;
            }
            try {
                decoder.feed(chunk);
                for (ServerSentEvent event = decoder.poll(); event != null; event = decoder.poll()) {
                    if (!onEvent.took(event)) {
                        deliver(JSON.readTree(event.data()), sink);
                    }
                }
            } catch (SseDecoder.EventTooLarge | IOException e) {
                done.tryFail(garbage(server, e));
                response.request().reset();
            }
        });
        response.exceptionHandler(failure -> done.tryFail(lost(server, failure)));
        response.endHandler(end -> done.tryComplete());
    }

    /** Takes an event that is not a message. */
    @FunctionalInterface
    interface EventHandler {
        boolean took(ServerSentEvent event);
    }

    /** The body of an error answer, at most a line of it, for the message. */
    static void describeError(HttpClientResponse response, Promise<Void> done, String server) {
        response.body().onComplete(body -> {
            String text = body.succeeded() ? body.result().toString(StandardCharsets.UTF_8).strip() : "";
            String snippet = text.length() > 200 ? text.substring(0, 200) + "…" : text;
            done.tryFail(new McpTransport.TransportException("the MCP server " + server + " answered HTTP "
                    + response.statusCode() + (snippet.isEmpty() ? "" : ": " + snippet), response.statusCode(), null));
        });
    }

    static McpTransport.TransportException lost(String server, Throwable cause) {
        return new McpTransport.TransportException("the connection to the MCP server " + server + " broke: "
                + cause.getMessage(), cause);
    }

    static McpTransport.TransportException garbage(String server, Throwable cause) {
        return new McpTransport.TransportException("the MCP server " + server
                + " answered with something that is not a JSON-RPC message", cause);
    }

    private static void deliver(JsonNode message, Consumer<JsonNode> sink) {
        if (message.isArray()) {
            message.forEach(sink);
        } else {
            sink.accept(message);
        }
    }
}
