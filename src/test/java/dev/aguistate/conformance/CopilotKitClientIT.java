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
 * Runs {@code frontend-sample/test-copilotkit}: CopilotKit's own client ({@code @copilotkit/core}, the version
 * CopilotKit 1.75 ships) against the packaged server's CopilotKit runtime endpoints, with the scripted demo model.
 *
 * <p>Without Node on the PATH the test is skipped and says so, unless {@code AGUI_REQUIRE_NODE=true} (set by
 * {@code .ci/run}), which turns the skip into a failure.
 */
@Order(ItOrder.COPILOTKIT_CLIENT)
class CopilotKitClientIT {

    @RegisterExtension
    static final PackagedServer SERVER = PackagedServer.defaults();

    @Test
    void copilotKitsClientRunsAgainstTheRuntimeEndpoints() throws Exception {
        runSuite(SERVER, Map.of());
    }

    /** The suite against {@code server}, with {@code environment} (e.g. the API key its requests send). */
    static void runSuite(PackagedServer server, Map<String, String> environment) throws Exception {
        FrontendSample.assumeNode("@copilotkit/core against /copilotkit");
        FrontendSample.installIfMissing("@copilotkit/core");
        assertEquals(0, FrontendSample.run(server.url(), List.of("npm", "run", "test:copilotkit"), 300,
                environment).exitCode(), "the @copilotkit/core suite failed; its output is above");
    }
}
