package dev.aguistate.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * MCP's stdio transport: the server is a process this one starts; messages are lines of JSON on its standard input
 * and output, and what it writes to its standard error is its log.
 *
 * <p>A pipe can only be read by blocking, so each process has two threads of its own, one reading its output and one
 * its error output; no thread is added per call. Messages are written on a worker thread, in order (a process that
 * stops reading must not block an event loop), and what the output thread reads is handed to the client's context.
 */
final class StdioTransport implements McpTransport {

    private static final Logger LOG = Logger.getLogger(StdioTransport.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The last lines of the process's error output, kept to say why it exited. */
    private static final int KEPT_ERROR_LINES = 5;

    private final McpServer server;
    private final Context context;
    private final Deque<String> lastErrors = new ArrayDeque<>();
    /** Set on a worker thread; stopped from whichever thread closes. */
    private volatile Process process;
    private volatile OutputStream input;
    private volatile boolean closed;
    /** Stops the process if the JVM exits without closing this (a start that failed after this one began). */
    private final Thread onExit = new Thread(this::close, "mcp-stop");

    StdioTransport(McpServer server, Context context) {
        this.server = server;
        this.context = context;
    }

    @Override
    public Future<Void> open(Receiver receiver) {
        return context.executeBlocking(() -> {
            try {
                process = new ProcessBuilder(server.command()).start();
            } catch (IOException e) {
                throw new TransportException("the MCP server " + server.label() + " could not be started: "
                        + e.getMessage(), e);
            }
            if (closed) { // closed while it started
                close();
                throw new TransportException("the server is shutting down", null);
            }
            Runtime.getRuntime().addShutdownHook(onExit);
            input = process.getOutputStream();
            daemon("mcp-" + server.id() + "-out", () -> readOutput(receiver));
            daemon("mcp-" + server.id() + "-err", this::readErrors);
            return null;
        });
    }

    private static void daemon(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
    }

    private void readOutput(Receiver receiver) {
        Process started = process;
        try (BufferedReader lines = reader(started.getInputStream())) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode message;
                try {
                    message = JSON.readTree(line);
                } catch (IOException notJson) {
                    LOG.warnf("MCP server %s wrote a line that is not JSON-RPC; ignored", server.label());
                    continue;
                }
                context.runOnContext(v -> receiver.received(message));
            }
        } catch (IOException closed) {
            // the process is gone; said below
        }
        String why = exitDescription(started);
        context.runOnContext(v -> receiver.ended(why));
    }

    private void readErrors() {
        try (BufferedReader lines = reader(process.getErrorStream())) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                LOG.debugf("MCP server %s: %s", server.id(), line);
                synchronized (lastErrors) {
                    if (lastErrors.size() == KEPT_ERROR_LINES) {
                        lastErrors.removeFirst();
                    }
                    lastErrors.addLast(line);
                }
            }
        } catch (IOException closed) {
            // the process is gone
        }
    }

    private String exitDescription(Process started) {
        String exit;
        try {
            exit = started.waitFor(2, TimeUnit.SECONDS) ? "exited with code " + started.exitValue()
                    : "closed its output";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit = "closed its output";
        }
        String errors;
        synchronized (lastErrors) {
            errors = String.join(" | ", lastErrors);
        }
        return "the MCP server " + server.label() + " " + exit + (errors.isEmpty() ? "" : " (its last words: " + errors + ")");
    }

    private static BufferedReader reader(InputStream stream) {
        return new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
    }

    @Override
    public Exchange send(ObjectNode message, String authorization) {
        byte[] line = (message.toString() + "\n").getBytes(StandardCharsets.UTF_8);
        Future<Void> written = context.executeBlocking(() -> {
            try {
                input.write(line);
                input.flush();
            } catch (IOException e) {
                throw new TransportException("the MCP server " + server.label() + " no longer reads its input", e);
            }
            return null;
        }, true);
        return Exchange.sent(written);
    }

    @Override
    public boolean answersInline() {
        return false;
    }

    @Override
    public void initialized(String protocolVersion) {
        // the version is the session's; a pipe carries no headers
    }

    @Override
    public String network() {
        return "pipe";
    }

    @Override
    public void close() {
        closed = true;
        if (process != null && Thread.currentThread() != onExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(onExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        if (process != null) {
            Process stopping = process;
            // a launcher (npx, a shell script) leaves its children behind otherwise
            stopping.descendants().forEach(ProcessHandle::destroy);
            stopping.destroy();
            stopping.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(slow -> {
                stopping.destroyForcibly();
                return null;
            });
        }
    }
}
