package dev.aguistate.webhooks;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.AsyncResult;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * One webhook's deliveries: each one a {@code POST} over Vert.x's non-blocking client, signed afresh for each attempt
 * (its {@code webhook-timestamp} is the attempt's), tried again after a wait (a Vert.x timer) on a 5xx, 408, 429,
 * timeout or connection failure, until {@link Webhook#maxAttempts()}. Nothing here waits: a run only hands its
 * outcome over ({@link #offer}). At most {@link Webhook#queueSize()} deliveries are held at once; one more is dropped.
 */
final class WebhookDelivery {

    private static final Logger LOG = Logger.getLogger(WebhookDelivery.class);
    private static final long DROPS_LOGGED_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    /** One outcome on its way: the same id and body on every attempt. */
    record Message(String id, byte[] body, String threadId, String runId) {}

    private final Webhook webhook;
    private final Vertx vertx;
    private final HttpClient http;
    private final AtomicInteger held = new AtomicInteger();
    private final Counter delivered;
    private final Counter rejected;
    private final Counter failed;
    private final Counter dropped;
    private final AtomicLong dropsUnlogged = new AtomicLong();
    private final AtomicLong dropsLoggedAt = new AtomicLong(System.nanoTime() - DROPS_LOGGED_EVERY_NANOS);
    private volatile boolean closed;

    WebhookDelivery(Webhook webhook, Vertx vertx, HttpClient http, MeterRegistry registry) {
        this.webhook = webhook;
        this.vertx = vertx;
        this.http = http;
        Gauge.builder("agui.webhooks.pending", held, AtomicInteger::get).tag("webhook", webhook.name())
                .description("Deliveries held: being sent or waiting to be sent again").register(registry);
        this.delivered = result(registry, "delivered");
        this.rejected = result(registry, "rejected");
        this.failed = result(registry, "failed");
        this.dropped = result(registry, "dropped");
    }

    private Counter result(MeterRegistry registry, String result) {
        return Counter.builder("agui.webhooks.deliveries").tag("webhook", webhook.name()).tag("result", result)
                .description("Run webhooks by how their delivery ended").register(registry);
    }

    Webhook webhook() {
        return webhook;
    }

    /** Starts delivering {@code message}, unless this webhook holds as many as it may: then it is dropped. */
    void offer(Message message) {
        if (closed) {
            return;
        }
        if (held.incrementAndGet() > webhook.queueSize()) {
            held.decrementAndGet();
            dropped.increment();
            logDrop(message);
            return;
        }
        attempt(message, 1);
    }

    /** Deliveries still held, which stop here: their runs' webhooks are not sent. */
    int close() {
        closed = true;
        return held.get();
    }

    private void attempt(Message message, int attempt) {
        long timestamp = Instant.now().getEpochSecond();
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                .setAbsoluteURI(webhook.url().toString())
                .setConnectTimeout(webhook.timeout().toMillis())
                .setIdleTimeout(webhook.timeout().toMillis())
                .setFollowRedirects(false)
                .putHeader("content-type", "application/json")
                .putHeader("webhook-id", message.id())
                .putHeader("webhook-timestamp", Long.toString(timestamp))
                .putHeader("webhook-signature", webhook.signature(message.id(), timestamp, message.body()));
        http.request(options)
                .compose(request -> request.send(Buffer.buffer(message.body())))
                .compose(response -> response.end().map(ended -> response.statusCode()))
                .onComplete(answer -> answered(message, attempt, answer));
    }

    private void answered(Message message, int attempt, AsyncResult<Integer> answer) {
        int status = answer.succeeded() ? answer.result() : 0;
        if (status / 100 == 2) {
            done(delivered);
            LOG.debugf("threadId=%s runId=%s: webhook %s delivered (attempt %d)", message.threadId(),
                    message.runId(), webhook.name(), attempt);
            return;
        }
        String what = answer.succeeded() ? "HTTP " + status : answer.cause().toString();
        boolean retryable = status == 0 || status == 408 || status == 429 || status / 100 == 5;
        if (!retryable) {
            done(rejected);
            LOG.warnf("threadId=%s runId=%s: webhook %s refused the run's outcome (%s); not sent again",
                    message.threadId(), message.runId(), webhook.name(), what);
        } else if (attempt >= webhook.maxAttempts() || closed) {
            done(failed);
            LOG.warnf("threadId=%s runId=%s: webhook %s not delivered after %d attempts (last: %s); given up",
                    message.threadId(), message.runId(), webhook.name(), attempt, what);
        } else {
            long wait = webhook.waitBefore(attempt + 1, ThreadLocalRandom.current().nextDouble()).toMillis();
            LOG.debugf("threadId=%s runId=%s: webhook %s attempt %d failed (%s); again in %d ms", message.threadId(),
                    message.runId(), webhook.name(), attempt, what, wait);
            vertx.setTimer(Math.max(wait, 1), timer -> {
                if (closed) {
                    done(failed);
                } else {
                    attempt(message, attempt + 1);
                }
            });
        }
    }

    private void done(Counter result) {
        held.decrementAndGet();
        result.increment();
    }

    /** A drop is logged at once, and while drops go on, once a minute with their count. */
    private void logDrop(Message message) {
        dropsUnlogged.incrementAndGet();
        long now = System.nanoTime();
        long last = dropsLoggedAt.get();
        if (now - last >= DROPS_LOGGED_EVERY_NANOS && dropsLoggedAt.compareAndSet(last, now)) {
            long count = dropsUnlogged.getAndSet(0);
            LOG.warnf("threadId=%s runId=%s: webhook %s holds %d deliveries already (queueSize); dropped this run's "
                            + "outcome (%d dropped since the last such line)", message.threadId(), message.runId(),
                    webhook.name(), webhook.queueSize(), count);
        }
    }
}
