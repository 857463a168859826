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

    private FrontendSample() {
    }

    /**
     * Runs a command in {@code frontend-sample/} with {@code AGUI_SERVER_URL} set to {@code serverUrl}; returns its
     * exit code.
     */
    public static int run(String serverUrl, List<String> command, int timeoutSeconds, Map<String, String> environment)
            throws IOException, InterruptedException {
        Map<String, String> withServer = new HashMap<>(environment);
        withServer.put("AGUI_SERVER_URL", serverUrl);
        return execute(command, timeoutSeconds, withServer);
    }

    /**
     * Runs a command in {@code frontend-sample/}; returns its exit code. Its output goes to
     * {@code target/frontend-sample.log} and is then printed: a child writing to the test JVM's own stdout, or
     * reading its stdin, would corrupt Surefire's channel to the fork.
     */
    private static int execute(List<String> command, int timeoutSeconds, Map<String, String> environment)
            throws IOException, InterruptedException {
        Path log = Path.of("target", "frontend-sample.log").toAbsolutePath();
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
        System.out.println(Files.readString(log));
        if (!finished) {
            throw new AssertionError(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
        }
        return process.exitValue();
    }

    /**
     * Installs the sample's npm packages unless {@code module} is already there ({@code npm install}, as a newcomer's
     * first start does; the lock pins every version).
     */
    public static void installIfMissing(String module) throws IOException, InterruptedException {
        if (!Files.isDirectory(DIR.resolve("node_modules").resolve(module))) {
            int exit = execute(List.of("npm", "install", "--no-audit", "--no-fund"), 300, Map.of());
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
