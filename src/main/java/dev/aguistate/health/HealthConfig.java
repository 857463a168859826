package dev.aguistate.health;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What readiness ({@code /q/health/ready}) insists on ({@code agui.health.*}). */
@ConfigMapping(prefix = "agui.health")
public interface HealthConfig {

    /**
     * Readiness is DOWN while the heap in use right after the latest garbage collection is above this share of
     * the maximum heap: the collector could not free enough, and new work would soon fail for want of memory.
     */
    @WithDefault("0.9")
    double maxHeapAfterGc();
}
