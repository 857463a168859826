package dev.aguistate.health;

import jakarta.inject.Inject;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness is DOWN while the heap is nearly exhausted: more than {@code agui.health.max-heap-after-gc} of the
 * maximum heap was still in use right after the latest garbage collection (of any kind: a young collection
 * reports the old generation's occupancy too). A load balancer then sends new work elsewhere, where a replica in
 * this state would fail it with an out-of-memory error. Before the first collection it is UP.
 */
@Readiness
public class HeapReadinessCheck implements HealthCheck {

    private final double maxShare;
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .map(MemoryPoolMXBean::getName)
            .collect(Collectors.toUnmodifiableSet());

    @Inject
    HeapReadinessCheck(HealthConfig config) {
        this(config.maxHeapAfterGc());
    }

    HeapReadinessCheck(double maxShare) {
        this.maxShare = maxShare;
    }

    @Override
    public HealthCheckResponse call() {
        long max = Runtime.getRuntime().maxMemory();
        var response = HealthCheckResponse.named("heap").withData("maxBytes", max)
                .withData("maxShareAfterGc", Double.toString(maxShare));
        Optional<Long> used = usedAfterLatestCollection();
        if (used.isEmpty()) {
            return response.up().build();
        }
        response.withData("usedAfterGcBytes", used.get());
        return response.status(used.get() <= maxShare * max).build();
    }

    /** The heap in use at the end of the latest collection; empty before the first, or on a JVM that does not say. */
    private Optional<Long> usedAfterLatestCollection() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .filter(com.sun.management.GarbageCollectorMXBean.class::isInstance)
                .map(collector -> ((com.sun.management.GarbageCollectorMXBean) collector).getLastGcInfo())
                .filter(Objects::nonNull)
                .max(Comparator.comparingLong(com.sun.management.GcInfo::getEndTime))
                .map(latest -> heapIn(latest.getMemoryUsageAfterGc()));
    }

    private long heapIn(Map<String, MemoryUsage> usageByPool) {
        return usageByPool.entrySet().stream()
                .filter(pool -> heapPools.contains(pool.getKey()))
                .mapToLong(pool -> pool.getValue().getUsed())
                .sum();
    }
}
