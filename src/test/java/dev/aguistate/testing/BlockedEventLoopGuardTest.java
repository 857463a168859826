package dev.aguistate.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** The guard that every test runs under sees a blocked event loop. */
@Isolated
class BlockedEventLoopGuardTest {

    @Test
    void aBlockedEventLoopIsRecorded() throws Exception {
        Vertx vertx = Vertx.vertx(new VertxOptions()
                .setMaxEventLoopExecuteTime(50).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
                .setBlockedThreadCheckInterval(10).setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS));
        List<String> warnings;
        try {
            assertEquals(List.of(), BlockedEventLoopGuard.takeWarnings());
            CompletableFuture<Void> blocked = new CompletableFuture<>();
            vertx.runOnContext(v -> {
                block(TimeUnit.MILLISECONDS.toNanos(500));
                blocked.complete(null);
            });
            blocked.get(5, TimeUnit.SECONDS);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
            // Taken once this test's own Vert.x, which blocks on purpose (and, with a 50 ms limit on a busy machine,
            // may report its closing too), is gone, so that it does not fail in the guard's afterEach.
            warnings = BlockedEventLoopGuard.takeWarnings();
        }
        assertTrue(warnings.stream().anyMatch(w -> w.contains("vert.x-eventloop-thread")), warnings.toString());
    }

    /** Busy, like a CPU-bound handler: the checker measures how long the loop has not come back. */
    private static void block(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
