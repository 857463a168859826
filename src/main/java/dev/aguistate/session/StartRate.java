package dev.aguistate.session;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * How often each user may ask for a run: a token bucket per user, holding at most {@code runs} starts and refilled by
 * {@code runs} every {@code window}, evenly, so that a user who waited may start a burst of {@code runs} at once and
 * then one every {@code window / runs}. A full bucket is the same as none, so full buckets are dropped once there
 * are many: the memory is bounded by the users who asked for runs within the last window.
 */
final class StartRate {

    /** Buckets kept before the first sweep for full ones; after a sweep, twice what is left. */
    private static final int FIRST_SWEEP = 1024;

    private record Bucket(double tokens, long atNanos) {}

    private final int runs;
    private final long windowNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Bucket> buckets = new HashMap<>();
    private int sweepAt = FIRST_SWEEP;

    StartRate(int runs, Duration window, LongSupplier nanoTime) {
        if (runs < 1) {
            throw new IllegalArgumentException("agui.run.rate-limit.runs-per-user must be at least 1");
        }
        this.runs = runs;
        this.windowNanos = window.toNanos();
        this.nanoTime = nanoTime;
    }

    /** Takes one start for {@code user}: empty when it may start now, else how long until it may. */
    synchronized Optional<Duration> take(String user) {
        long now = nanoTime.getAsLong();
        double tokens = tokensAt(buckets.get(user), now);
        if (tokens < 1) {
            return Optional.of(Duration.ofNanos((long) Math.ceil((1 - tokens) * windowNanos / runs)));
        }
        buckets.put(user, new Bucket(tokens - 1, now));
        if (buckets.size() >= sweepAt) {
            buckets.values().removeIf(bucket -> tokensAt(bucket, now) >= runs);
            sweepAt = Math.max(FIRST_SWEEP, 2 * buckets.size());
        }
        return Optional.empty();
    }

    /** How many users have a bucket now. */
    synchronized int buckets() {
        return buckets.size();
    }

    private double tokensAt(Bucket bucket, long now) {
        return bucket == null ? runs
                : Math.min(runs, bucket.tokens() + (double) (now - bucket.atNanos()) * runs / windowNanos);
    }
}
