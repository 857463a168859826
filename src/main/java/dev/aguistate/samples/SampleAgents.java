package dev.aguistate.samples;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.tools.BackendTool;
import jakarta.inject.Singleton;
import io.quarkus.arc.lookup.LookupIfProperty;
import jakarta.enterprise.inject.Produces;

/**
 * The agents a fresh server offers. Each is an {@link AgentDefinition} bean; add yours the same way. Served only with
 * {@code agui.samples.enabled=true}: the standalone server turns them on, an application embedding it does not.
 */
public class SampleAgents {

    @Produces
    @Singleton
    @LookupIfProperty(name = "agui.samples.enabled", stringValue = "true")
    AgentDefinition chat() {
        return AgentDefinition.builder("chat")
                .description("A helpful assistant that can look up the weather and use the tools your page offers.")
                .instructions("""
                        You are a helpful assistant. Answer concisely.
                        Use get_weather for questions about the weather.
                        The user's page may offer tools of its own; call them when the user asks for what they do.""")
                .tool(BackendTool.builder("get_weather")
                        .description("Get the current weather for a location.")
                        .stringParameter("location", "City or place name, e.g. Paris", true)
                        .handler((args, context) -> Weather.forLocation(args.path("location").asText("")).toJson()))
                .build();
    }
}
