package dev.aguistate.agent;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithName;
import java.nio.file.Path;
import java.util.Optional;

/** Which agents are served ({@code agui.agents.*}). */
@ConfigMapping(prefix = "agui.agents")
public interface AgentsConfig {

    /**
     * The agent behind {@code POST /agui}; unset, the only agent when there is one, else none ({@code POST /agui}
     * answers 404).
     */
    @WithName("default")
    Optional<String> defaultAgent();

    /**
     * A YAML or JSON file of further agents, read once at start-up (format: docs/declarative-agents.md); a
     * relative path starts at the working directory.
     */
    Optional<Path> file();
}
