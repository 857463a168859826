package dev.aguistate.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;

/**
 * How JSON-RPC messages travel between an {@link McpClient} and one MCP server. Everything a transport reports
 * reaches the client on the client's Vert.x context, and the client calls it only from there.
 */
interface McpTransport {

    /** Where a transport delivers what the server sends. */
    interface Receiver {
        /** One message: a response, a notification or a request of the server's. */
        void received(JsonNode message);

        /** The connection is gone (the process exited, the event stream closed); {@code why} is for people. */
        void ended(String why);
    }

    /** Connects: starts the process, or opens the event stream and learns where to post. */
    Future<Void> open(Receiver receiver);

    /**
     * Sends one message with the request's {@code authorization} (null: none beyond the configured headers). The
     * future completes when the transport is done with it: for Streamable HTTP once the answer it carried has been
     * read ({@link #answersInline()}), otherwise once it is sent.
     */
    Exchange send(ObjectNode message, String authorization);

    /** Whether the answer to a request comes within its own exchange, so that an exchange over without one lacks it. */
    boolean answersInline();

    /** The session is initialized with this protocol version: later requests may say so. */
    void initialized(String protocolVersion);

    /** How it talks, for traces: {@code pipe} or {@code tcp}. */
    String network();

    /** Ends the connection (stops the process) and whatever it started. */
    void close();

    /** One message on its way. */
    interface Exchange {
        Future<Void> done();

        /** Gives up on the answer: closes the connection carrying it, if it has one of its own. */
        void abort();

        /** A message whose answer comes over a channel shared with every other: sending is all it has of its own. */
        static Exchange sent(Future<Void> sending) {
            return new Exchange() {
                @Override
                public Future<Void> done() {
                    return sending;
                }

                @Override
                public void abort() {
                    // nothing of its own to close
                }
            };
        }
    }

    /** A failure of the transport itself, worded for the LLM and for readiness. */
    final class TransportException extends RuntimeException {
        private final int status;
        private final boolean unreachable;

        TransportException(String message, Throwable cause) {
            this(message, 0, false, cause);
        }

        TransportException(String message, int status, Throwable cause) {
            this(message, status, false, cause);
        }

        private TransportException(String message, int status, boolean unreachable, Throwable cause) {
            super(message, cause, false, false);
            this.status = status;
            this.unreachable = unreachable;
        }

        /** No connection could be made: the server is down, not just this exchange broken. */
        static TransportException unreachable(String message, Throwable cause) {
            return new TransportException(message, 0, true, cause);
        }

        /** The HTTP status the server answered with; 0 when it did not answer with one. */
        int status() {
            return status;
        }

        boolean isUnreachable() {
            return unreachable;
        }
    }
}
