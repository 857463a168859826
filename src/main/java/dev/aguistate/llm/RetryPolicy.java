package dev.aguistate.llm;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * When an upstream call that failed before its response is tried again. Only transient failures qualify (see
 * {@link Reason}); at most {@code maxRetries} times; after a jittered exponential backoff, or after the upstream's
 * {@code Retry-After} when it sends one. A {@code Retry-After} longer than {@code maxWait} is not waited for: the
 * call fails at once, because a user watching a chat is better served by an error than by minutes of silence.
 *
 * <p>Retries happen only before the response (see {@link SseExchange}), so never after the call delivered anything.
 */
record RetryPolicy(int maxRetries, Duration maxWait, DoubleSupplier random) {

    /** The first backoff is between half of this and this; each further one doubles. */
    static final Duration FIRST_BACKOFF = Duration.ofMillis(250);

    /** Why a call was tried again; the {@code reason} tag of the {@code agui.llm.retries} counter. */
    enum Reason {
        /** Nothing listens at the endpoint's port (yet: a restarting server). */
        CONNECTION_REFUSED("connection_refused"),
        /** The connection closed or was reset before any response, e.g. a pooled keep-alive connection that the
         *  upstream closed just as it was reused. */
        CONNECTION_CLOSED("connection_closed"),
        STATUS_429("status_429"),
        STATUS_502("status_502"),
        STATUS_503("status_503");

        private final String tag;

        Reason(String tag) {
            this.tag = tag;
        }

        String tag() {
            return tag;
        }

        static Optional<Reason> forStatus(int status) {
            return switch (status) {
                case 429 -> Optional.of(STATUS_429);
                case 502 -> Optional.of(STATUS_502);
                case 503 -> Optional.of(STATUS_503);
                default -> Optional.empty();
            };
        }
    }

    /**
     * The wait before retry number {@code retry} (1 for the first), or empty if there is to be none.
     *
     * @param retryAfter what the upstream asked for, or null
     */
    Optional<Duration> delayBefore(int retry, Duration retryAfter) {
        if (retry > maxRetries) {
            return Optional.empty();
        }
        if (retryAfter != null) {
            return retryAfter.compareTo(maxWait) <= 0 ? Optional.of(retryAfter) : Optional.empty();
        }
        long ceiling = FIRST_BACKOFF.toMillis() << Math.min(retry - 1, 20);
        long jittered = (long) (ceiling * (0.5 + 0.5 * random.getAsDouble()));
        return Optional.of(Duration.ofMillis(Math.min(jittered, maxWait.toMillis())));
    }

    /**
     * What the upstream asked for in {@code retry-after-ms} (OpenAI, Azure) or {@code Retry-After} (seconds or an
     * HTTP date), or null if neither is there or readable. A date in the past means now.
     */
    static Duration retryAfter(String retryAfterMs, String retryAfter, Instant now) {
        if (retryAfterMs != null) {
            try {
                return Duration.ofMillis(Math.max(0, (long) Double.parseDouble(retryAfterMs.trim())));
            } catch (NumberFormatException unreadable) {
                // fall back to Retry-After
            }
        }
        if (retryAfter == null || retryAfter.isBlank()) {
            return null;
        }
        String value = retryAfter.trim();
        if (value.chars().allMatch(Character::isDigit)) {
            try {
                return Duration.ofSeconds(Long.parseLong(value));
            } catch (NumberFormatException tooLong) {
                return ChronoUnit.FOREVER.getDuration();
            }
        }
        try {
            Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO;
        } catch (DateTimeParseException unreadable) {
            return null;
        }
    }
}
