package dev.aguistate.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.BinaryOperator;

/**
 * Where a tool's result goes in state: the result's field {@code source} (null = the whole result), merged
 * with {@code handler} (null = the state key's own handler).
 */
public record StateOutput(String source, BinaryOperator<JsonNode> handler) {}
