package dev.aguistate.agent;

import dev.aguistate.tools.BackendTool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An agent the server offers at {@code /agui/<name>}: what it is told, and the backend tools it may call.
 * Build one with {@link #builder(String)} and expose it as a CDI bean; the registry picks it up.
 */
public record AgentDefinition(String name, String description, String instructions, Map<String, BackendTool> tools) {

    public AgentDefinition {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-z0-9][a-z0-9_-]{0,63}")) {
            throw new IllegalArgumentException("agent name must match [a-z0-9][a-z0-9_-]{0,63}: " + name);
        }
        description = description == null ? "" : description;
        instructions = instructions == null ? "" : instructions;
        tools = Map.copyOf(tools);
    }

    public Optional<BackendTool> tool(String toolName) {
        return Optional.ofNullable(tools.get(toolName));
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public static final class Builder {
        private final String name;
        private String description;
        private String instructions;
        private final List<BackendTool> tools = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        public Builder description(String description) {
            this.description = description;
            return this;
        }

        public Builder instructions(String instructions) {
            this.instructions = instructions;
            return this;
        }

        public Builder tool(BackendTool tool) {
            tools.add(tool);
            return this;
        }

        public AgentDefinition build() {
            Map<String, BackendTool> byName = new LinkedHashMap<>();
            for (BackendTool tool : tools) {
                if (byName.put(tool.name(), tool) != null) {
                    throw new IllegalArgumentException("agent " + name + " declares tool " + tool.name() + " twice");
                }
            }
            return new AgentDefinition(name, description, instructions, byName);
        }
    }
}
