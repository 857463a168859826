package dev.aguistate.webhooks;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Where the outcome of a run is sent (docs/threads.md, "Run webhooks"): one {@code POST} of a JSON body per run that
 * ends in one of {@code events}, signed as Standard Webhooks 1.0 signs ({@code webhook-id}, {@code webhook-timestamp},
 * {@code webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">} under {@code secret}), tried again with
 * backoff on a 5xx, 408, 429, timeout or connection failure.
 *
 * @param name        names the webhook in logs and metrics
 * @param secret      {@code whsec_} and the base64 of 24 to 64 random bytes, the HMAC key; never logged
 * @param timeout     how long connecting, or the endpoint's silence once connected, may last
 * @param maxAttempts attempts in all, the first one included
 * @param backoff     the wait before the second attempt, doubled before each one after (with jitter), at most a minute
 * @param queueSize   the most deliveries this webhook holds at once (sending or waiting to be sent again); one more
 *                    is dropped, counted and logged
 */
public record Webhook(String name, URI url, String secret, Set<WebhookEvent> events, Duration timeout,
                      int maxAttempts, Duration backoff, int queueSize) {

    static final String SECRET_PREFIX = "whsec_";
    private static final Duration LONGEST_BACKOFF = Duration.ofMinutes(1);

    public Webhook {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("webhook name must match [A-Za-z0-9_-]{1,64}: " + name);
        }
        Objects.requireNonNull(url, "url of webhook " + name);
        if (!url.isAbsolute() || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
            throw new IllegalArgumentException("webhook " + name + ": url must be an absolute http or https URL");
        }
        key(name, Objects.requireNonNull(secret, "secret of webhook " + name));
        if (events != null && events.isEmpty()) {
            throw new IllegalArgumentException("webhook " + name + ": events is empty: list the outcomes to send ("
                    + WebhookEvent.choices() + "), or leave it out for all");
        }
        events = Collections.unmodifiableSet(events == null ? EnumSet.allOf(WebhookEvent.class)
                : EnumSet.copyOf(events));
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(backoff, "backoff");
        if (timeout.isNegative() || timeout.isZero() || backoff.isNegative() || maxAttempts < 1 || queueSize < 1) {
            throw new IllegalArgumentException("webhook " + name
                    + ": timeout must be positive, backoff not negative, maxAttempts and queueSize at least 1");
        }
    }

    public static Builder builder(String name, String url, String secret) {
        return new Builder(name, url, secret);
    }

    /** Whether a run that ended so is sent here. */
    public boolean wants(WebhookEvent event) {
        return events.contains(event);
    }

    /** The {@code webhook-signature} header's value: {@code v1,} and the base64 HMAC-SHA256 of the signed content. */
    String signature(String id, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key(name, secret), "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** The wait before attempt {@code attempt} (2 or more): {@code backoff} doubled, within ±25%. */
    Duration waitBefore(int attempt, double jitter) {
        long doubled = backoff.toMillis() << Math.min(attempt - 2, 16);
        long millis = Math.min(doubled, LONGEST_BACKOFF.toMillis());
        return Duration.ofMillis(Math.round(millis * (0.75 + jitter / 2)));
    }

    private static byte[] key(String name, String secret) {
        byte[] key = null;
        if (secret.startsWith(SECRET_PREFIX)) {
            try {
                key = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
            } catch (IllegalArgumentException notBase64) {
                key = null;
            }
        }
        if (key == null || key.length < 24 || key.length > 64) {
            throw new IllegalArgumentException("webhook " + name + ": secret must be 'whsec_' followed by the base64 of "
                    + "24 to 64 random bytes (e.g. echo \"whsec_$(openssl rand -base64 32)\")");
        }
        return key;
    }

    /** The secret stays out of logs and messages. */
    @Override
    public String toString() {
        return "Webhook[" + name + " " + url + " " + events + "]";
    }

    public static final class Builder {

        private final String name;
        private final String url;
        private final String secret;
        private Set<WebhookEvent> events;
        private Duration timeout = Duration.ofSeconds(10);
        private int maxAttempts = 6;
        private Duration backoff = Duration.ofSeconds(1);
        private int queueSize = 1000;

        private Builder(String name, String url, String secret) {
            this.name = name;
            this.url = url;
            this.secret = secret;
        }

        /** The outcomes sent; all of them unless set. */
        public Builder events(Set<WebhookEvent> events) {
            this.events = Set.copyOf(events);
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Builder maxAttempts(int attempts) {
            this.maxAttempts = attempts;
            return this;
        }

        public Builder backoff(Duration backoff) {
            this.backoff = backoff;
            return this;
        }

        public Builder queueSize(int size) {
            this.queueSize = size;
            return this;
        }

        public Webhook build() {
            URI parsed;
            try {
                parsed = URI.create(Objects.requireNonNull(url, "url of webhook " + name));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("webhook " + name + ": url is not a URL: " + url);
            }
            return new Webhook(name, parsed, secret, events, timeout, maxAttempts, backoff, queueSize);
        }
    }
}
