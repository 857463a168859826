package dev.aguistate.run.tracing;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * What the run's OpenTelemetry spans record ({@code agui.tracing.*}); whether spans are made and where they go is
 * OpenTelemetry's own configuration ({@code quarkus.otel.*}).
 */
@ConfigMapping(prefix = "agui.tracing")
public interface TracingConfig {

    /**
     * Record prompts, completions, tool arguments and tool results on the spans. Off by default: they carry the
     * users' conversations and whatever the tools return.
     */
    @WithDefault("false")
    boolean captureContent();
}
