package dev.aguistate.replicas;

import dev.aguistate.testing.SseClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One replica as it runs in production: the packaged application ({@code ./mvnw package} builds it) in a JVM of
 * its own, configured by {@code -D} system properties, its output in {@code target/replica-logs/<name>-<port>.log}.
 */
public final class ServerInstance implements AutoCloseable {

    static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");
    private static final Path LOGS = Path.of("target", "replica-logs");
    /**
     * The ports these tests may use; other suites on this machine keep out of them. {@code -Dagui.test.replica-ports=
     * first-last} moves them, so that two checkouts can run the replica tests side by side.
     */
    private static final String PORTS = System.getProperty("agui.test.replica-ports", "18401-18420");
    private static final int FIRST_PORT = Integer.parseInt(PORTS.split("-")[0].trim());
    private static final int LAST_PORT = Integer.parseInt(PORTS.split("-")[1].trim());
    private static final AtomicInteger NEXT_PORT = new AtomicInteger(FIRST_PORT);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration READY_POLL = Duration.ofMillis(100);

    private final String name;
    private final int port;
    private final Path log;
    private final Process process;

    private ServerInstance(String name, int port, Path log, Process process) {
        this.name = name;
        this.port = port;
        this.log = log;
        this.process = process;
    }

    /** Starts the process; {@link #awaitReady()} waits until it serves, so that several can start side by side. */
    public static ServerInstance launch(String name, Map<String, String> properties) {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " is missing: the replica tests run the packaged server, which"
                    + " the package phase builds; run them with ./mvnw verify");
        }
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-Dquarkus.http.port=" + port));
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-jar", JAR.toString()));
        try {
            Files.createDirectories(LOGS);
            Path log = LOGS.resolve(name + "-" + port + ".log");
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            return new ServerInstance(name, port, log, process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start replica " + name, e);
        }
    }

    /** Waits until {@code /q/health/ready} answers 200; fails with the log if the process dies or takes too long. */
    public void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        SseClient client = client();
        while (true) {
            if (!process.isAlive()) {
                throw new AssertionError(this + " exited with " + process.exitValue() + " while starting:\n" + log());
            }
            if (respondsReady(client)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(this + " was not ready within " + START_TIMEOUT + ":\n" + log());
            }
            pause(READY_POLL);
        }
    }

    private static boolean respondsReady(SseClient client) {
        try {
            return client.get("/q/health/ready").statusCode() == 200;
        } catch (UncheckedIOException notListeningYet) {
            return false;
        }
    }

    public SseClient client() {
        return new SseClient(port);
    }

    /** Where it serves, {@code http://127.0.0.1:<port>}, for clients other than {@link #client()}. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** SIGKILL, as when a machine or container dies: no shutdown hook runs, nothing is released. */
    void kill() {
        process.destroyForcibly();
        awaitExit();
    }

    /** The log so far. */
    public String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** A graceful stop (SIGTERM), forced if it takes too long. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            if (!waitFor(STOP_TIMEOUT)) {
                process.destroyForcibly();
            }
        }
        awaitExit();
    }

    private void awaitExit() {
        if (!waitFor(STOP_TIMEOUT)) {
            throw new IllegalStateException(this + " did not exit");
        }
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public String toString() {
        return "replica " + name + " (port " + port + ", pid " + process.pid() + ", log " + log + ")";
    }

    /** The next port of the range that nothing listens on, going round the range. */
    private static int freePort() {
        int size = LAST_PORT - FIRST_PORT + 1;
        for (int tried = 0; tried < size; tried++) {
            int port = FIRST_PORT + Math.floorMod(NEXT_PORT.getAndIncrement() - FIRST_PORT, size);
            if (isFree(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port in " + FIRST_PORT + ".." + LAST_PORT);
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(port)); // all interfaces, as the server binds
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }

    /** Waits between two polls of a condition that has a bound of its own. */
    static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while polling", e);
        }
    }
}
