package dev.aguistate.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Runs npm and node commands in {@code frontend-sample/} against a server (the Node suites' launcher). */
public final class FrontendSample {

    public static final Path DIR = Path.of("frontend-sample");
    private static final Path LOGS = Path.of("target", "frontend-sample");

    private FrontendSample() {
    }

    /** What a command did: its exit code and its output (stdout and stderr, as they came). */
    public record Finished(int exitCode, String output) {
    }

    /**
     * Runs a command in {@code frontend-sample/} with {@code AGUI_SERVER_URL} set to {@code serverUrl}; returns its
     * exit code and output.
     */
    public static Finished run(String serverUrl, List<String> command, int timeoutSeconds,
                               Map<String, String> environment) throws IOException, InterruptedException {
        Map<String, String> withServer = new HashMap<>(environment);
        withServer.put("AGUI_SERVER_URL", serverUrl);
        return execute(command, timeoutSeconds, withServer);
    }

    /**
     * Runs a command in {@code frontend-sample/}. Its output goes to a file of its own under
     * {@code target/frontend-sample/} and is then printed: a child writing to the test JVM's own stdout, or reading
     * its stdin, would corrupt Surefire's channel to the fork. A file per command, because Failsafe runs the
     * {@code *IT} classes side by side.
     */
    private static Finished execute(List<String> command, int timeoutSeconds, Map<String, String> environment)
            throws IOException, InterruptedException {
        Files.createDirectories(LOGS);
        String name = String.join("-", command).replaceAll("[^A-Za-z0-9.]+", "-");
        Path log = Files.createTempFile(LOGS, name.substring(0, Math.min(name.length(), 60)) + "-", ".log")
                .toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder(command).directory(DIR.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        boolean finished = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly().waitFor();
        }
        String output = Files.readString(log);
        System.out.println("----- " + String.join(" ", command) + " (" + log + ") -----\n" + output);
        if (!finished) {
            throw new AssertionError(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
        }
        return new Finished(process.exitValue(), output);
    }

    /**
     * Installs the sample's npm packages unless {@code module} is already there ({@code npm install}, as a newcomer's
     * first start does; the lock pins every version). One at a time: two installs into one node_modules would
     * break each other.
     */
    public static synchronized void installIfMissing(String module) throws IOException, InterruptedException {
        if (!Files.isDirectory(DIR.resolve("node_modules").resolve(module))) {
            int exit = execute(List.of("npm", "install", "--no-audit", "--no-fund"), 300, Map.of()).exitCode();
            if (exit != 0) {
                throw new AssertionError("npm install in frontend-sample failed (exit " + exit + ")");
            }
        }
    }

    /**
     * Skips the calling test, saying so, when node or npm is not on the PATH, unless {@code AGUI_REQUIRE_NODE=true}
     * (set by {@code .ci/run}), which turns the skip into a failure.
     */
    public static void assumeNode(String what) {
        if (commandWorks("node", "--version") && commandWorks("npm", "--version")) {
            return;
        }
        if (Boolean.parseBoolean(System.getenv("AGUI_REQUIRE_NODE"))) {
            throw new AssertionError("AGUI_REQUIRE_NODE=true but node/npm are not on the PATH");
        }
        Assumptions.abort("SKIPPED " + what + ": node and npm are not on the PATH");
    }

    /** Whether the command runs and exits 0 (e.g. {@code node --version}). */
    public static boolean commandWorks(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectOutput(new File("/dev/null"))
                    .redirectErrorStream(true).start();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
