package dev.aguistate.webhooks;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithParentName;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The server's run webhooks ({@code agui.webhooks.<name>.*}), sent for every agent that does not declare its own
 * (docs/threads.md, "Run webhooks"). Unset tuning takes {@link Webhook.Builder}'s defaults.
 */
@ConfigMapping(prefix = "agui.webhooks")
public interface WebhooksConfig {

    @WithParentName
    Map<String, Endpoint> webhooks();

    interface Endpoint {

        /** Where the {@code POST} goes: an absolute http or https URL. */
        String url();

        /** {@code whsec_} and the base64 of 24 to 64 random bytes: the HMAC-SHA256 key the body is signed with. */
        String secret();

        /** The outcomes sent: {@code finished}, {@code failed}, {@code cancelled}, {@code interrupted}; unset: all. */
        Optional<Set<WebhookEvent>> events();

        /** How long connecting, or the endpoint's silence once connected, may last (default 10s). */
        Optional<Duration> timeout();

        /** Attempts in all, the first one included (default 6). */
        Optional<Integer> maxAttempts();

        /** The wait before the second attempt, doubled before each later one, at most a minute (default 1s). */
        Optional<Duration> backoff();

        /** The most deliveries held at once, sending or waiting to be sent again (default 1000). */
        Optional<Integer> queueSize();

        default Webhook toWebhook(String name) {
            Webhook.Builder webhook = Webhook.builder(name, url(), secret());
            events().ifPresent(webhook::events);
            timeout().ifPresent(webhook::timeout);
            maxAttempts().ifPresent(webhook::maxAttempts);
            backoff().ifPresent(webhook::backoff);
            queueSize().ifPresent(webhook::queueSize);
            return webhook.build();
        }
    }
}
