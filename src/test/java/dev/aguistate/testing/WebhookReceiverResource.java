package dev.aguistate.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * Starts a {@link WebhookReceiver} before the application and configures the server's run webhooks at it: {@code all}
 * ({@code /all}, every outcome) and {@code failures} ({@code /failures}, failed runs only); the agents file's own
 * webhooks reach it through {@code ${AGUI_TEST_WEBHOOK_URL}} and {@code ${AGUI_TEST_WEBHOOK_SECRET}}.
 */
public class WebhookReceiverResource implements QuarkusTestResourceLifecycleManager {

    public static final String ALL_SECRET = secret("the secret of the webhook 'all'.");
    public static final String FAILURES_SECRET = secret("the secret of webhook 'failures'");
    public static final String AGENTS_SECRET = secret("the secret of the agent's own one");

    private static volatile WebhookReceiver receiver;

    private static String secret(String text) {
        return "whsec_" + Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The receiver the running application sends to. */
    public static WebhookReceiver receiver() {
        if (receiver == null) {
            throw new IllegalStateException("the webhook receiver runs only under a profile with this resource");
        }
        return receiver;
    }

    @Override
    public Map<String, String> start() {
        receiver = WebhookReceiver.start();
        return Map.of(
                "agui.webhooks.all.url", receiver.url() + "/all",
                "agui.webhooks.all.secret", ALL_SECRET,
                "agui.webhooks.all.backoff", "50ms",
                "agui.webhooks.failures.url", receiver.url() + "/failures",
                "agui.webhooks.failures.secret", FAILURES_SECRET,
                "agui.webhooks.failures.events", "failed",
                "AGUI_TEST_WEBHOOK_URL", receiver.url(),
                "AGUI_TEST_WEBHOOK_SECRET", AGENTS_SECRET);
    }

    @Override
    public void stop() {
        if (receiver != null) {
            receiver.close();
            receiver = null;
        }
    }
}
