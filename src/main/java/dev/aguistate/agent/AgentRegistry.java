package dev.aguistate.agent;

import dev.aguistate.tools.ResultLimit;
import dev.aguistate.tools.ToolSource;
import dev.aguistate.tools.ToolSourceRuntime;
import dev.aguistate.tools.ToolsConfig;
import dev.aguistate.tools.langchain4j.BeanTools;
import io.quarkus.runtime.Startup;
import io.vertx.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * All agents, by name: every {@link AgentDefinition} bean and the agents of {@code agui.agents.file}, whose
 * {@code tools} lists name the {@code @Tool} methods of the application's beans ({@link BeanTools}). The default
 * agent answers {@code POST /agui}. Created at start-up, so that a bad agents file or name clash stops the server
 * rather than its first request. It owns the agents' {@link ToolSource}s (MCP servers, HTTP tools): it starts them
 * here, in the background, and closes them at shutdown.
 */
@ApplicationScoped
@Startup
public class AgentRegistry {

    private static final Logger LOG = Logger.getLogger(AgentRegistry.class);

    private final Map<String, AgentDefinition> agents;
    private final String defaultAgent;

    @Inject
    AgentRegistry(Instance<AgentDefinition> beans, AgentsConfig config, BeanTools javaTools, Vertx vertx,
                  ToolsConfig tools) {
        this(beans, config, javaTools);
        ToolSourceRuntime runtime = new ToolSourceRuntime(vertx, new ResultLimit(tools.maxResultChars()));
        agents.values().forEach(agent -> agent.toolSources().forEach(source -> {
            LOG.infof("agent %s: starting tool source %s", agent.name(), source.id());
            source.start(runtime);
        }));
    }

    private AgentRegistry(Instance<AgentDefinition> beans, AgentsConfig config, BeanTools javaTools) {
        Map<String, AgentDefinition> byName = new TreeMap<>();
        // where each agent was declared, to name both sides of a clash
        Map<String, String> origins = new HashMap<>();
        for (Instance.Handle<AgentDefinition> bean : beans.handles()) {
            add(byName, origins, bean.get(), "Java (" + bean.getBean().getBeanClass().getName() + ")");
        }
        config.file().ifPresent(file -> AgentsFile.load(file, AgentRegistry::configured, javaTools.all())
                .forEach(agent -> add(byName, origins, agent, file.toString())));
        config.defaultAgent().filter(name -> !byName.containsKey(name)).ifPresent(name -> {
            throw new IllegalStateException("agui.agents.default names agent '" + name + "', but the agents are "
                    + byName.keySet());
        });
        this.agents = Collections.unmodifiableMap(byName);
        // unnamed, the only agent is the default; among several, none is
        this.defaultAgent = config.defaultAgent()
                .orElse(byName.size() == 1 ? byName.keySet().iterator().next() : null);
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

    /** A {@code ${NAME}} of the agents file: the server's configuration (environment, system properties, files). */
    private static Optional<String> configured(String name) {
        return ConfigProvider.getConfig().getOptionalValue(name, String.class);
    }

    @PreDestroy
    void closeToolSources() {
        agents.values().forEach(agent -> agent.toolSources().forEach(ToolSource::close));
    }

    public Optional<AgentDefinition> find(String name) {
        return Optional.ofNullable(agents.get(name));
    }

    /** The agent behind {@code POST /agui}: {@code agui.agents.default}, else the only agent; else none. */
    public Optional<AgentDefinition> defaultAgent() {
        return Optional.ofNullable(defaultAgent).map(agents::get);
    }

    public Collection<AgentDefinition> all() {
        return agents.values();
    }
}
