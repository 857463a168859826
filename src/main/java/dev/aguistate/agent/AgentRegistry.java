package dev.aguistate.agent;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * All agents, by name: every {@link AgentDefinition} bean and the agents of {@code agui.agents.file}. The default
 * agent answers {@code POST /agui}. Created at start-up, so that a bad agents file or name clash stops the server
 * rather than its first request.
 */
@ApplicationScoped
@Startup
public class AgentRegistry {

    private final Map<String, AgentDefinition> agents;
    private final String defaultAgent;

    AgentRegistry(Instance<AgentDefinition> beans, AgentsConfig config) {
        Map<String, AgentDefinition> byName = new TreeMap<>();
        // where each agent was declared, to name both sides of a clash
        Map<String, String> origins = new HashMap<>();
        for (Instance.Handle<AgentDefinition> bean : beans.handles()) {
            add(byName, origins, bean.get(), "Java (" + bean.getBean().getBeanClass().getName() + ")");
        }
        config.file().ifPresent(file ->
                AgentsFile.load(file).forEach(agent -> add(byName, origins, agent, file.toString())));
        if (!byName.containsKey(config.defaultAgent())) {
            throw new IllegalStateException("agui.agents.default names agent '" + config.defaultAgent()
                    + "', but the agents are " + byName.keySet());
        }
        this.agents = Collections.unmodifiableMap(byName);
        this.defaultAgent = config.defaultAgent();
    }

    private static void add(Map<String, AgentDefinition> byName, Map<String, String> origins,
                            AgentDefinition agent, String origin) {
        String earlier = origins.putIfAbsent(agent.name(), origin);
        if (earlier != null) {
            throw new IllegalStateException("two agents are named '" + agent.name() + "': one in " + earlier
                    + ", one in " + origin);
        }
        byName.put(agent.name(), agent);
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
