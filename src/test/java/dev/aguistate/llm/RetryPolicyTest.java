package dev.aguistate.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class RetryPolicyTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    @Test
    void retryAfterInSecondsAnHttpDateOrMilliseconds() {
        assertEquals(Duration.ofSeconds(7), RetryPolicy.retryAfter(null, "7", NOW));
        assertEquals(Duration.ofSeconds(30), RetryPolicy.retryAfter(null, "Sun, 01 Mar 2026 12:00:30 GMT", NOW));
        assertEquals(Duration.ZERO, RetryPolicy.retryAfter(null, "Sun, 01 Mar 2026 11:59:00 GMT", NOW));
        assertEquals(Duration.ofMillis(1500), RetryPolicy.retryAfter("1500", "2", NOW), "the finer one wins");
        assertEquals(Duration.ofSeconds(2), RetryPolicy.retryAfter("soon", "2", NOW));
        assertNull(RetryPolicy.retryAfter(null, "whenever", NOW));
        assertNull(RetryPolicy.retryAfter(null, null, NOW));
        assertTrue(RetryPolicy.retryAfter(null, "99999999999999999999999", NOW).toDays() > 365);
    }

    @Test
    void backoffGrowsWithJitterAndStopsAfterTheLastRetry() {
        RetryPolicy lowest = new RetryPolicy(3, Duration.ofSeconds(10), () -> 0.0);
        RetryPolicy highest = new RetryPolicy(3, Duration.ofSeconds(10), () -> 0.999999);

        assertEquals(Optional.of(Duration.ofMillis(125)), lowest.delayBefore(1, null));
        assertEquals(Optional.of(Duration.ofMillis(249)), highest.delayBefore(1, null));
        assertEquals(Optional.of(Duration.ofMillis(250)), lowest.delayBefore(2, null));
        assertEquals(Optional.of(Duration.ofMillis(999)), highest.delayBefore(3, null));
        assertEquals(Optional.empty(), lowest.delayBefore(4, null));
    }

    @Test
    void retryAfterIsHonouredUpToTheLimitAndBeyondItNotWaitedFor() {
        RetryPolicy policy = new RetryPolicy(2, Duration.ofSeconds(10), () -> 0.5);

        assertEquals(Optional.of(Duration.ofSeconds(3)), policy.delayBefore(1, Duration.ofSeconds(3)));
        assertEquals(Optional.of(Duration.ofSeconds(10)), policy.delayBefore(2, Duration.ofSeconds(10)));
        assertEquals(Optional.empty(), policy.delayBefore(1, Duration.ofSeconds(11)));
        assertEquals(Optional.empty(), policy.delayBefore(3, Duration.ofSeconds(1)));
    }

    @Test
    void backoffNeverExceedsTheLimit() {
        RetryPolicy policy = new RetryPolicy(40, Duration.ofSeconds(10), () -> 0.999);

        assertEquals(Optional.of(Duration.ofSeconds(10)), policy.delayBefore(40, null));
    }
}
