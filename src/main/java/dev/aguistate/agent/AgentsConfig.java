package dev.aguistate.agent;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.nio.file.Path;
import java.util.Optional;

/** Which agents are served ({@code agui.agents.*}). */
@ConfigMapping(prefix = "agui.agents")
public interface AgentsConfig {

    /** The agent behind {@code POST /agui}. */
    @WithName("default")
    @WithDefault("chat")
    String defaultAgent();

    /**
     * A YAML or JSON file of further agents, read once at start-up (format: docs/declarative-agents.md); a
     * relative path starts at the working directory.
     */
    Optional<Path> file();
}
