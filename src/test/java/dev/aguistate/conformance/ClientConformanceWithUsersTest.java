package dev.aguistate.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.testing.FrontendSample;
import dev.aguistate.testing.ScriptedDemoProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite's case that needs two users (connecting to another user's live run), with the official
 * {@code @ag-ui/client} 1.0.0 and 0.0.59, against the server with two API keys; {@link ClientConformanceTest} runs
 * the rest of the suite on a server with one user, where that case is skipped.
 */
@QuarkusTest
@TestProfile(ClientConformanceWithUsersTest.TwoUsers.class)
class ClientConformanceWithUsersTest {

    public static class TwoUsers extends ScriptedDemoProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("agui.auth.api-keys.alice-key", "alice");
            overrides.put("agui.auth.api-keys.bob-key", "bob");
            return overrides;
        }
    }

    @Test
    void officialClientAcceptsWhatAnotherUsersThreadIsAnsweredWith() throws Exception {
        FrontendSample.assumeNode("@ag-ui/client conformance with two users");
        FrontendSample.installIfMissing("@ag-ui/client-0.0.59");
        for (String client : List.of("1.0.0", "0.0.59")) {
            assertEquals(0, FrontendSample.run(List.of("node", "--test", "--test-name-pattern", "another user",
                    "test/"), 120, Map.of("AGUI_CLIENT", client, "AGUI_API_KEY", "alice-key",
                    "AGUI_OTHER_API_KEY", "bob-key")), "the case failed with @ag-ui/client " + client
                    + "; its output is above");
            String report = Files.readString(Path.of("target", "frontend-sample.log"));
            assertTrue(report.contains("# pass 1\n") && report.contains("# fail 0\n"),
                    "the another-user case ran and passed, with @ag-ui/client " + client);
        }
    }
}
