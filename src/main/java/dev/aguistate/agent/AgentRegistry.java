package dev.aguistate.agent;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** All agents, by name: every {@link AgentDefinition} bean. The default agent answers {@code POST /agui}. */
@ApplicationScoped
public class AgentRegistry {

    private final Map<String, AgentDefinition> agents;
    private final String defaultAgent;

    AgentRegistry(Instance<AgentDefinition> definitions, AgentsConfig config) {
        Map<String, AgentDefinition> byName = new TreeMap<>();
        for (AgentDefinition definition : definitions) {
            if (byName.put(definition.name(), definition) != null) {
                throw new IllegalStateException("two agents are named " + definition.name());
            }
        }
        if (!byName.containsKey(config.defaultAgent())) {
            throw new IllegalStateException("agui.agents.default names agent '" + config.defaultAgent()
                    + "', but the agents are " + byName.keySet());
        }
        this.agents = Collections.unmodifiableMap(byName);
        this.defaultAgent = config.defaultAgent();
    }

    public Optional<AgentDefinition> find(String name) {
        return Optional.ofNullable(agents.get(name));
    }

    public AgentDefinition defaultAgent() {
        return agents.get(defaultAgent);
    }

    public Collection<AgentDefinition> all() {
        return agents.values();
    }
}
