package dev.aguistate.conformance;

import dev.aguistate.testing.ItOrder;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CopilotKit's client against the packaged server with API keys: the app passes its key in CopilotKit's
 * {@code headers}, and every request CopilotKit makes (info, run, connect, stop) carries it to the one
 * {@code UserResolver}.
 */
@Order(ItOrder.COPILOTKIT_CLIENT_WITH_API_KEY)
class CopilotKitClientWithApiKeyIT {

    @RegisterExtension
    static final PackagedServer SERVER = PackagedServer.withApiKeys();

    @Test
    void copilotKitsClientSendsTheAppsKeyOnEveryRequest() throws Exception {
        CopilotKitClientIT.runSuite(SERVER, Map.of("AGUI_API_KEY", PackagedServer.COPILOTKIT_KEY));
    }
}
