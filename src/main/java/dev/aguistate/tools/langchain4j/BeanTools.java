package dev.aguistate.tools.langchain4j;

import dev.aguistate.tools.BackendTool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The langchain4j {@code @Tool} methods of the application's CDI beans, by tool name, for agents that name them
 * ({@code tools: [lookupOrder]} in an agents file). Found once, when the agents are made: a method that cannot be a
 * tool, or two tools of one name, stop the start with a message naming the beans and methods.
 */
@ApplicationScoped
public class BeanTools {

    private final Map<String, BackendTool> byName;

    /**
     * Every bean is looked at, through the BeanManager. {@code keepsEveryBean} is never read: as an injection point
     * every bean could satisfy, it keeps Quarkus from removing a bean that nothing injects as unused, which a tools
     * bean that only an agents file names is (its {@code Instance.handles()} would not list them all, though).
     */
    BeanTools(BeanManager beans, @Any Instance<Object> keepsEveryBean) {
        Map<String, BackendTool> tools = new TreeMap<>();
        Map<String, String> origins = new HashMap<>();
        for (Bean<?> bean : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
            // a class bean only: a producer method's bean class is the class declaring it, not what it produces
            if (!bean.getTypes().contains(bean.getBeanClass()) || !ToolMethods.hasToolMethods(bean.getBeanClass())) {
                continue;
            }
            Object target = beans.getReference(bean, bean.getBeanClass(), beans.createCreationalContext(bean));
            ToolMethods.byMethod(target).forEach((method, tool) -> {
                String origin = ToolMethods.describe(method);
                String earlier = origins.putIfAbsent(tool.name(), origin);
                if (earlier != null) {
                    throw new IllegalStateException("two @Tool methods are named '" + tool.name() + "': "
                            + earlier + " and " + origin);
                }
                tools.put(tool.name(), tool);
            });
        }
        this.byName = Collections.unmodifiableMap(tools);
    }

    /** The tools by name. */
    public Map<String, BackendTool> all() {
        return byName;
    }
}
