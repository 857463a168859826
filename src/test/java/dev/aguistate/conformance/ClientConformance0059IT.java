package dev.aguistate.conformance;

import dev.aguistate.testing.ItOrder;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Node conformance suite, as {@link ClientConformanceIT} runs it, with {@code @ag-ui/client} 0.0.59: what
 * CopilotKit 1.75 ships, installed under the npm alias {@code @ag-ui/client-0.0.59}. A class of its own so that
 * Failsafe runs the two clients side by side: the suite mostly waits for the demo model's paced answers, and each of
 * its tests works on threads of its own.
 */
@Order(ItOrder.CLIENT_CONFORMANCE_0059)
class ClientConformance0059IT {

    @RegisterExtension
    static final PackagedServer SERVER = PackagedServer.defaults();

    @Test
    void officialClientAcceptsEveryRun() throws Exception {
        ClientConformanceIT.runSuite(SERVER, "0.0.59");
    }
}
