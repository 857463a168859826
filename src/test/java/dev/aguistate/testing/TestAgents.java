package dev.aguistate.testing;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.tools.BackendTool;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** An agent whose tools misbehave on purpose, for the failure paths of the run loop. */
public class TestAgents {

    @Produces
    @Singleton
    AgentDefinition faultyTools() {
        return AgentDefinition.builder("faulty-tools")
                .description("test agent with a tool that throws")
                .tool(BackendTool.builder("explode")
                        .description("always fails")
                        .handler(args -> {
                            throw new IllegalStateException("the fuse was lit");
                        }))
                .build();
    }
}
