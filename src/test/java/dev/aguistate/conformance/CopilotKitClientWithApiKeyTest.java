package dev.aguistate.conformance;

import dev.aguistate.testing.ScriptedDemoProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CopilotKit's client against a server with API keys: the app passes its key in CopilotKit's {@code headers}, and
 * every request CopilotKit makes (info, run, connect, stop) carries it to the one {@code UserResolver}.
 */
@QuarkusTest
@TestProfile(CopilotKitClientWithApiKeyTest.WithApiKey.class)
class CopilotKitClientWithApiKeyTest {

    private static final String KEY = "copilotkit-app-key";

    public static class WithApiKey extends ScriptedDemoProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("agui.auth.api-keys." + KEY, "carol");
            return overrides;
        }
    }

    @Test
    void copilotKitsClientSendsTheAppsKeyOnEveryRequest() throws Exception {
        CopilotKitClientTest.runSuite(Map.of("AGUI_API_KEY", KEY));
    }
}
