package dev.aguistate.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.testing.ScriptedDemo;
import dev.aguistate.testing.SseClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs the Node conformance suite ({@code frontend-sample/test}, the official {@code @ag-ui/client}) against
 * this server started as a newcomer starts it: no LLM configured, scripted demo model.
 *
 * <p>Without Node on the PATH the test is skipped and says so, unless {@code AGUI_REQUIRE_NODE=true} (set by
 * {@code .ci/run}), which turns the skip into a failure.
 */
@QuarkusTest
@TestProfile(ScriptedDemo.class)
class ClientConformanceTest {

    private static final Path SAMPLE = Path.of("frontend-sample");

    @Test
    void officialClientAcceptsEveryRun() throws Exception {
        boolean required = Boolean.parseBoolean(System.getenv("AGUI_REQUIRE_NODE"));
        if (!commandWorks("node", "--version") || !commandWorks("npm", "--version")) {
            if (required) {
                throw new AssertionError("AGUI_REQUIRE_NODE=true but node/npm are not on the PATH");
            }
            Assumptions.abort("SKIPPED @ag-ui/client conformance: node and npm are not on the PATH");
        }
        if (!Files.isDirectory(SAMPLE.resolve("node_modules/@ag-ui/client"))) {
            assertEquals(0, run(List.of("npm", "ci", "--no-audit", "--no-fund"), 300), "npm ci in frontend-sample");
        }
        assertEquals(0, run(List.of("npm", "run", "test:conformance"), 300),
                "the @ag-ui/client conformance suite failed; its output is above");
    }

    private static int run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(SAMPLE.toFile()).inheritIO();
        builder.environment().put("AGUI_SERVER_URL", "http://127.0.0.1:" + SseClient.testPort());
        Process process = builder.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
        }
        return process.exitValue();
    }

    private static boolean commandWorks(String... command) {
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
