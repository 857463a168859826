package dev.aguistate.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.Reference;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

/**
 * Against this JVM's own heap: {@code System.gc()} makes the collection whose outcome the check reads (HotSpot runs
 * a full collection for it unless told otherwise).
 */
class HeapReadinessCheckTest {

    private static final long MAX_HEAP = Runtime.getRuntime().maxMemory();
    private static final int RETAINED_BYTES = 64 << 20;

    @Test
    void itIsDownWhileMoreThanItsShareOfTheHeapIsStillUsedAfterACollection() {
        System.gc();
        long usedBefore = usedAfterGc(new HeapReadinessCheck(1.0).call());
        byte[] retained = new byte[RETAINED_BYTES];
        // The limit lies between the heap used without the array and with it.
        double limit = (usedBefore + RETAINED_BYTES / 2.0) / MAX_HEAP;

        System.gc();
        HealthCheckResponse nearlyFull = new HeapReadinessCheck(limit).call();
        Reference.reachabilityFence(retained);

        assertEquals(HealthCheckResponse.Status.DOWN, nearlyFull.getStatus());
        assertTrue(usedAfterGc(nearlyFull) >= usedBefore + RETAINED_BYTES * 9L / 10,
                "it counts what is retained: " + nearlyFull.getData());
        retained = null; // the interpreter would keep it as long as the variable holds it
        System.gc();
        assertEquals(HealthCheckResponse.Status.UP, new HeapReadinessCheck(limit).call().getStatus());
    }

    @Test
    void itSaysWhatItMeasured() {
        System.gc();
        HealthCheckResponse response = new HeapReadinessCheck(0.9).call();

        assertEquals("heap", response.getName());
        assertEquals(MAX_HEAP, response.getData().orElseThrow().get("maxBytes"));
        assertTrue(usedAfterGc(response) > 0);
    }

    private static long usedAfterGc(HealthCheckResponse response) {
        return (Long) response.getData().orElseThrow().get("usedAfterGcBytes");
    }
}
