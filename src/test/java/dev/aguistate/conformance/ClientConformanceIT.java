package dev.aguistate.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.testing.FrontendSample;
import dev.aguistate.testing.ItOrder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the Node conformance suite ({@code frontend-sample/test}, every frame checked against the strict AG-UI 1.0
 * schemas) with the official {@code @ag-ui/client} 1.0.0 against the packaged server started as a newcomer starts
 * it: no LLM configured, scripted demo model. {@link ClientConformance0059IT} runs it with 0.0.59, on the same
 * server, side by side with this class ({@code npm run test:conformance} runs the two one after the other).
 *
 * <p>Without Node on the PATH the test is skipped and says so, unless {@code AGUI_REQUIRE_NODE=true} (set by
 * {@code .ci/run}), which turns the skip into a failure.
 */
@Order(ItOrder.CLIENT_CONFORMANCE)
class ClientConformanceIT {

    @RegisterExtension
    static final PackagedServer SERVER = PackagedServer.defaults();

    @Test
    void officialClientAcceptsEveryRun() throws Exception {
        runSuite(SERVER, "1.0.0");
    }

    /** The whole suite against {@code server}, with {@code @ag-ui/client} at {@code version}. */
    static void runSuite(PackagedServer server, String version) throws Exception {
        FrontendSample.assumeNode("@ag-ui/client " + version + " conformance");
        FrontendSample.installIfMissing("@ag-ui/client-0.0.59"); // the newest addition to package.json
        assertEquals(0, FrontendSample.run(server.url(), List.of("node", "--test", "test/"), 300,
                        Map.of("AGUI_CLIENT", version)).exitCode(),
                "the @ag-ui/client " + version + " conformance suite failed; its output is above");
    }
}
