package com.example.orders;

import dev.langchain4j.agent.tool.Tool;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class OrderTools {

    @Tool("Looks up an order by its number: where it is and when it arrives.")
    public String lookupOrder(String orderNumber) {
        return "Order " + orderNumber + " shipped on Monday and arrives on Thursday.";
    }
}
