package dev.aguistate.tools.langchain4j;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.aguistate.tools.ToolContext;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A bean of the test application with langchain4j {@code @Tool} methods, which nothing injects: the agents file of
 * JavaToolsAgentTest names them. Application-scoped, so a run calls it through its CDI client proxy.
 */
@ApplicationScoped
public class OrderDesk {

    @Tool("Looks up an order by its number.")
    public String lookupOrder(@P("the order's number, like A-17") String orderNumber) {
        return "Order " + orderNumber + ": shipped on Monday";
    }

    @Tool("Remembers the order the user asks about, in the shared state.")
    public String rememberOrder(String orderNumber, ToolContext context) {
        context.updateState("lastOrder", TextNode.valueOf(orderNumber));
        context.progress(1, "Remembered " + orderNumber);
        return "remembered for a caller with " + context.caller().map(credential -> credential.kind().name())
                .orElse("no credential");
    }
}
