package com.example.agents;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.NoSuchElementException;

/** Stands in for your own service (a database, another API) that a backend tool calls. */
@ApplicationScoped
public class Orders {

    /** What the tool answers with: a record becomes the tool result as JSON. */
    public record Order(String number, String status, String expectedDelivery) {}

    private final Map<String, Order> byNumber = Map.of(
            "A-1001", new Order("A-1001", "shipped", "2026-12-02"),
            "A-1002", new Order("A-1002", "being packed", "2026-12-05"));

    /** The order; an unknown number throws, and the LLM is told "Error: …" as the tool's result. */
    public Order find(String number) {
        Order order = byNumber.get(number);
        if (order == null) {
            throw new NoSuchElementException("There is no order " + number + ".");
        }
        return order;
    }
}
