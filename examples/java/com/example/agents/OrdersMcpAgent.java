package com.example.agents;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.tools.TokenForwarding;
import dev.aguistate.tools.mcp.McpServer;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;

/**
 * An agent whose tools come from two MCP servers (docs/tools.md): the orders service's, reached over Streamable HTTP
 * with the caller's token, and a file server started as a process. In your project this file goes anywhere under
 * {@code src/main/java}.
 */
public class OrdersMcpAgent {

    @Produces
    @Singleton
    AgentDefinition support() {
        return AgentDefinition.builder("support")
                .instructions("You help with orders.")
                .mcpServer(McpServer.url("orders", "http://orders.internal:3001/mcp")
                        .tools("lookup_order", "refund").confirm("refund")
                        .header("X-Api-Key", System.getenv("ORDERS_KEY"))
                        .forwardUserToken(TokenForwarding.SIGNED_TOKENS)
                        .timeout(Duration.ofSeconds(30))
                        .build())
                .mcpServer(McpServer.command("files", List.of("npx", "-y", "@modelcontextprotocol/server-filesystem", "/srv"))
                        .prefix(false).build())
                .build();
    }
}
