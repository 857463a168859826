package dev.aguistate.copilotkit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** CopilotKit's runtime endpoints ({@code agui.copilotkit.*}). */
@ConfigMapping(prefix = "agui.copilotkit")
public interface CopilotKitConfig {

    /** Whether the endpoints are served at all; off, their paths answer 404 like any unknown path. */
    @WithDefault("true")
    boolean enabled();

    /**
     * Where they are served: what a CopilotKit app sets as its {@code runtimeUrl} (after the server's origin). Without
     * a leading slash it is under {@code agui.http.root}, with one it is from the server's root.
     */
    @WithDefault("copilotkit")
    String basePath();
}
