package dev.aguistate.tools;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a handler may return when the text the LLM and client see differs from the value written to state
 * (e.g. a state tool answers "Recipe updated." while its value is the recipe).
 */
public record ToolResult(String text, JsonNode value) {}
