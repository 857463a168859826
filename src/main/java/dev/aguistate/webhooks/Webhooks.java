package dev.aguistate.webhooks;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Run webhooks (docs/threads.md, "Run webhooks"): the replica that ran a run tells its outcome to the run's webhooks,
 * the agent's own or else the server's ({@code agui.webhooks.*}), each over its own bounded {@link WebhookDelivery}.
 * Handing an outcome over ({@link #runEnded}) never waits; the deliveries live in this process's memory only.
 */
@ApplicationScoped
@Startup
public class Webhooks {

    private static final Logger LOG = Logger.getLogger(Webhooks.class);

    private final List<Webhook> configured;
    private final Vertx vertx;
    private final MeterRegistry registry;
    private final HttpClient http;
    private final Map<Webhook, WebhookDelivery> deliveries = new ConcurrentHashMap<>();

    Webhooks(WebhooksConfig config, Vertx vertx, MeterRegistry registry) {
        this.configured = config.webhooks().entrySet().stream()
                .map(entry -> entry.getValue().toWebhook(entry.getKey())).toList();
        this.vertx = vertx;
        this.registry = registry;
        this.http = vertx.createHttpClient(new HttpClientOptions().setName("agui-webhooks").setKeepAlive(true));
        configured.forEach(webhook -> LOG.infof("run webhook %s: %s, for runs %s", webhook.name(), webhook.url(),
                webhook.events().stream().map(WebhookEvent::wireName).collect(Collectors.joining(", "))));
    }

    /**
     * Sends how a run ended to each of its webhooks that wants that outcome, one message id for all of them.
     *
     * @param agentsOwn the run's agent's webhooks, or null for the server's
     */
    public void runEnded(List<Webhook> agentsOwn, RunEnded run) {
        List<Webhook> wanting = (agentsOwn == null ? configured : agentsOwn).stream()
                .filter(webhook -> webhook.wants(run.event())).toList();
        if (wanting.isEmpty()) {
            return;
        }
        WebhookDelivery.Message message = new WebhookDelivery.Message(
                "msg_" + UUID.randomUUID().toString().replace("-", ""), run.body(), run.threadId(), run.runId());
        wanting.forEach(webhook -> deliveries
                .computeIfAbsent(webhook, created -> new WebhookDelivery(created, vertx, http, registry))
                .offer(message));
    }

    void stop(@Observes ShutdownEvent stopping) {
        deliveries.values().forEach(delivery -> {
            int lost = delivery.close();
            if (lost > 0) {
                LOG.warnf("run webhook %s: %d deliveries not finished at shutdown; they are not sent",
                        delivery.webhook().name(), lost);
            }
        });
        http.close();
    }
}
