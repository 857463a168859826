package dev.aguistate.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.testing.FrontendSample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the Node conformance suite ({@code frontend-sample/test}, the official {@code @ag-ui/client} 1.0.0 and
 * 0.0.59, every frame checked against the strict AG-UI 1.0 schemas) against the packaged server started as a
 * newcomer starts it: no LLM configured, scripted demo model.
 *
 * <p>Without Node on the PATH the test is skipped and says so, unless {@code AGUI_REQUIRE_NODE=true} (set by
 * {@code .ci/run}), which turns the skip into a failure.
 */
class ClientConformanceIT {

    @RegisterExtension
    static final PackagedServer SERVER = PackagedServer.defaults();

    @Test
    void officialClientAcceptsEveryRun() throws Exception {
        FrontendSample.assumeNode("@ag-ui/client conformance");
        FrontendSample.installIfMissing("@ag-ui/client-0.0.59"); // the newest addition to package.json
        assertEquals(0, FrontendSample.run(SERVER.url(), List.of("npm", "run", "test:conformance"), 300, Map.of()).exitCode(),
                "the @ag-ui/client conformance suite failed; its output is above");
    }
}
