package dev.aguistate.testing;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@link StubbedLlmProfile} server for the tests that hold something open for long, sharing one boot: an upstream
 * may stay silent for two minutes and a request body may take 120 s (so that only what a test is about decides),
 * the server holds at most {@link #PENDING_BODIES} bytes of unfinished bodies, a run's claim on its thread lasts
 * {@link #LOCK_TTL} (renewed while the run goes on), an event-loop task longer than 1 s is reported with its
 * stack, which {@link BlockedEventLoopGuard} turns into a failure, and responses are compressed for a client that
 * asks ({@code agui.http.compression}, for {@code ResponseCompressionTest}; the other tests' streams are read
 * uncompressed).
 */
public class LongWaitsProfile extends StubbedLlmProfile {

    /** Long enough that a renewal delayed by a busy machine (GC, a loaded CI host) still lands in time. */
    public static final Duration LOCK_TTL = Duration.ofMillis(1500);
    /** The size of the request body a stalled client announces in {@code StalledBodiesTest}. */
    public static final int BODY = 1_048_576;
    /** The server's budget for unfinished request bodies: six of them. */
    public static final int PENDING_BODIES = 6 * BODY;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("agui.llm.idle-timeout", "2m");
        overrides.put("agui.http.request-body-timeout", "120s");
        overrides.put("agui.http.pending-bodies.max-bytes", String.valueOf(PENDING_BODIES));
        overrides.put("agui.store.lock-ttl", LOCK_TTL.toMillis() + "ms");
        overrides.put("agui.http.compression", "true");
        overrides.put("quarkus.vertx.max-event-loop-execute-time", "1s");
        overrides.put("quarkus.vertx.warning-exception-time", "1s"); // with the stack of what blocked
        return overrides;
    }
}
