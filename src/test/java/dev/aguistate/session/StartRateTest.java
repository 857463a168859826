package dev.aguistate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The token buckets of the run rate limit, on a clock the test moves. */
@Execution(ExecutionMode.CONCURRENT)
class StartRateTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final StartRate rate = new StartRate(3, Duration.ofMinutes(1), now::get);

    @Test
    void aUserMayStartABurstThenOneEveryWindowOverRuns() {
        for (int i = 0; i < 3; i++) {
            assertEquals(Optional.empty(), rate.take("alice"), "start " + i);
        }

        assertEquals(Optional.of(Duration.ofSeconds(20)), rate.take("alice"), "the next token is 60 s / 3 away");
        assertEquals(Optional.empty(), rate.take("bob"), "each user has a bucket");
        now.addAndGet(Duration.ofSeconds(15).toNanos());
        assertEquals(Optional.of(Duration.ofSeconds(5)), rate.take("alice"), "refused asks take nothing");
        now.addAndGet(Duration.ofSeconds(5).toNanos());
        assertEquals(Optional.empty(), rate.take("alice"));
        assertTrue(rate.take("alice").isPresent());
    }

    @Test
    void aBucketNeverHoldsMoreThanItsBurst() {
        rate.take("alice");
        now.addAndGet(Duration.ofHours(1).toNanos());
        for (int i = 0; i < 3; i++) {
            assertEquals(Optional.empty(), rate.take("alice"));
        }
        assertTrue(rate.take("alice").isPresent(), "an hour of waiting buys the burst, not sixty starts");
    }

    @Test
    void usersWhoseBucketsFilledAgainAreForgotten() {
        for (int user = 0; user < 5_000; user++) {
            rate.take("user-" + user);
            now.addAndGet(Duration.ofMillis(100).toNanos());
        }
        // at 100 ms per user and 20 s per token, only the users of the last ~60 s can have a bucket that is not full
        assertTrue(rate.buckets() < 2 * 1024, "buckets kept: " + rate.buckets());
    }
}
