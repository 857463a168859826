package dev.aguistate.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.testing.FrontendSample;
import dev.aguistate.testing.ItOrder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The conformance suite's case that needs two users (connecting to another user's live run), with the official
 * {@code @ag-ui/client} 1.0.0 and 0.0.59 side by side, against the packaged server with API keys;
 * {@link ClientConformanceIT} runs the rest of the suite on a server with one user, where that case is skipped.
 */
@Execution(ExecutionMode.CONCURRENT)
@Order(ItOrder.CLIENT_CONFORMANCE_WITH_USERS)
class ClientConformanceWithUsersIT {

    @RegisterExtension
    static final PackagedServer SERVER = PackagedServer.withApiKeys();

    @ParameterizedTest(name = "@ag-ui/client {0}")
    @ValueSource(strings = {"1.0.0", "0.0.59"})
    void officialClientAcceptsWhatAnotherUsersThreadIsAnsweredWith(String client) throws Exception {
        FrontendSample.assumeNode("@ag-ui/client conformance with two users");
        FrontendSample.installIfMissing("@ag-ui/client-0.0.59");
        FrontendSample.Finished run = FrontendSample.run(SERVER.url(), List.of("node", "--test",
                "--test-name-pattern", "another user", "test/"), 120, Map.of("AGUI_CLIENT", client,
                "AGUI_API_KEY", "alice-key", "AGUI_OTHER_API_KEY", "bob-key"));
        assertEquals(0, run.exitCode(), "the case failed with @ag-ui/client " + client + "; its output is above");
        assertTrue(run.output().contains("# pass 1\n") && run.output().contains("# fail 0\n"),
                "the another-user case ran and passed, with @ag-ui/client " + client);
    }
}
