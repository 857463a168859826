package dev.aguistate.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The MCP servers the MCP tests talk to, started before the application: the reference server
 * {@code @modelcontextprotocol/server-everything} (npm, installed in {@code src/test/mcp}) over Streamable HTTP and
 * over the older HTTP+SSE, each started here as a process (the application starts its own copy over stdio), and a
 * {@link McpFixture}. Their
 * addresses reach the agents file ({@code src/test/resources/agents/mcp-agents.yaml}) as {@code ${…}} variables, which
 * the application reads from its configuration.
 */
public class McpServersResource implements QuarkusTestResourceLifecycleManager {

    /** The reference server's package directory, relative to the project. */
    public static final Path EVERYTHING = Path.of("src/test/mcp/node_modules/@modelcontextprotocol/server-everything");

    private static volatile McpFixture fixture;
    private final List<Process> processes = new java.util.ArrayList<>();

    public static McpFixture fixture() {
        if (fixture == null) {
            throw new IllegalStateException("the MCP fixture runs only under McpProfile");
        }
        return fixture;
    }

    /** Installs the reference server unless it is there (CI's .ci/run installs it first). */
    public static void installEverything() {
        if (Files.isDirectory(EVERYTHING)) {
            return;
        }
        try {
            Process install = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund")
                    .directory(new File("src/test/mcp")).redirectErrorStream(true)
                    .redirectOutput(new File("target/mcp-npm-install.log")).start();
            if (!install.waitFor(300, TimeUnit.SECONDS) || install.exitValue() != 0) {
                throw new IllegalStateException("npm install in src/test/mcp failed; see target/mcp-npm-install.log");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("npm is needed to install the reference MCP server", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Map<String, String> start() {
        installEverything();
        fixture = McpFixture.start();
        int port = everything("streamableHttp");
        int ssePort = everything("sse");
        return Map.of(
                "agui.agents.file", "src/test/resources/agents/mcp-agents.yaml",
                "AGUI_TEST_EVERYTHING_URL", "http://127.0.0.1:" + port + "/mcp",
                "AGUI_TEST_EVERYTHING_SSE_URL", "http://127.0.0.1:" + ssePort + "/sse",
                "AGUI_TEST_FIXTURE_URL", fixture.url(),
                "AGUI_TEST_CLOSED_URL", "http://127.0.0.1:" + freePort() + "/mcp",
                "AGUI_TEST_FIXTURE_KEY", "fixture-key-value");
    }

    /** Starts the reference server over {@code transport} on a free port, and answers the port once it listens. */
    private int everything(String transport) {
        int port = freePort();
        Process started;
        try {
            ProcessBuilder builder = new ProcessBuilder("node", EVERYTHING.resolve("dist/index.js").toString(),
                    transport).redirectErrorStream(true)
                    .redirectOutput(new File("target/mcp-everything-" + transport + ".log"));
            builder.environment().put("PORT", Integer.toString(port));
            started = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("node is needed to run the reference MCP server", e);
        }
        processes.add(started);
        awaitListening(started, port, transport);
        return port;
    }

    private static void awaitListening(Process everything, int port, String transport) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!everything.isAlive()) {
                throw new IllegalStateException("the reference MCP server exited; see target/mcp-everything-"
                        + transport + ".log");
            }
            try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (IOException notYet) {
                try {
                    everything.waitFor(100, TimeUnit.MILLISECONDS); // wakes early only if it exits
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalStateException("the reference MCP server did not listen on port " + port + " within 30 s");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {
        processes.forEach(process -> {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
        });
        if (fixture != null) {
            fixture.close();
            fixture = null;
        }
    }
}
