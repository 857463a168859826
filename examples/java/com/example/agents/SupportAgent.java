package com.example.agents;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.tools.BackendTool;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * An agent with one backend tool, served at {@code POST /agui/support} (docs/agents.md). In your project this file
 * goes anywhere under {@code src/main/java} (here {@code src/main/java/com/example/agents/}): the server finds every
 * {@link AgentDefinition} bean.
 */
public class SupportAgent {

    private final Orders orders;

    SupportAgent(Orders orders) {
        this.orders = orders;
    }

    @Produces
    @Singleton
    AgentDefinition support() {
        return AgentDefinition.builder("support")
                .description("Answers questions about orders")
                .instructions("You are a support agent. Use lookup_order for order questions.")
                .tool(BackendTool.builder("lookup_order")
                        .description("Find an order by its number")
                        .stringParameter("orderNumber", "The order number, e.g. A-1001", true)
                        .handler((args, context) -> orders.find(args.path("orderNumber").asText())))
                .build();
    }
}
