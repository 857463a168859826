package dev.aguistate.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.testing.FrontendSample;
import dev.aguistate.testing.ItOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the sample UI's browser tests ({@code frontend-sample/test-browser}: playwright-core driving Debian's
 * Chromium) against the packaged server, which serves the UI they build at {@code /} and answers with the scripted
 * demo model, paced so that a run can be watched as it happens. They include CopilotKit's own pages: its client in
 * the CopilotKit mode, and its React thread list ({@code useThreads} of {@code @copilotkit/react-core/v2}).
 *
 * <p>Without Node or Chromium the test is skipped and says so, unless {@code AGUI_REQUIRE_BROWSER=true} (set by
 * {@code .ci/run}, which installs Chromium), which turns the skip into a failure.
 */
@Order(ItOrder.BROWSER)
class BrowserIT {

    private static final Path SAMPLE = FrontendSample.DIR;
    private static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("AGUI_CHROMIUM", "/usr/bin/chromium"));

    /**
     * The scripted demo model with visible pacing, every predicted delta sent, the built UI served at /, and the
     * declarative agents of examples/agents.yaml (the UI has no card of their own for them). A busy thread refuses
     * ({@code multitask: reject}): how the page shows a failed run is tested with a run another client holds the thread
     * against, which the default strategy (enqueue) would let the page wait for instead.
     */
    @RegisterExtension
    static final PackagedServer SERVER = new PackagedServer("browser", Map.of(
            "agui.llm.demo.chunk-delay", "10ms",
            "agui.state.delta-interval", "0ms",
            "agui.samples.task-step-delay", "150ms",
            "agui.sample-ui.dir", SAMPLE.resolve("dist").toString(),
            "agui.agents.file", "examples/agents.yaml",
            "agui.run.multitask", "reject"));

    @Test
    void sampleUiWorksInARealBrowser() throws Exception {
        boolean required = Boolean.parseBoolean(System.getenv("AGUI_REQUIRE_BROWSER"));
        String missing = !FrontendSample.commandWorks("node", "--version")
                || !FrontendSample.commandWorks("npm", "--version")
                ? "node and npm are not on the PATH"
                : !Files.isExecutable(CHROMIUM) ? "there is no Chromium at " + CHROMIUM + " (apt-get install -y chromium)"
                : null;
        if (missing != null) {
            if (required) {
                throw new AssertionError("AGUI_REQUIRE_BROWSER=true but " + missing);
            }
            Assumptions.abort("SKIPPED sample UI browser tests: " + missing);
        }
        // a checkout whose node_modules predate a dependency gets it: the browser driver, CopilotKit's React package
        FrontendSample.installIfMissing("playwright-core");
        FrontendSample.installIfMissing("@copilotkit/react-core");
        assertEquals(0, FrontendSample.run(SERVER.url(), List.of("npm", "run", "test:browser"), 600,
                        Map.of("AGUI_CHROMIUM", CHROMIUM.toString())).exitCode(),
                "the sample UI browser tests failed; their output is above, screenshots in frontend-sample/test-results");
    }
}
