package dev.aguistate.agent;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** Which agents are served ({@code agui.agents.*}). */
@ConfigMapping(prefix = "agui.agents")
public interface AgentsConfig {

    /** The agent behind {@code POST /agui}. */
    @WithName("default")
    @WithDefault("chat")
    String defaultAgent();
}
