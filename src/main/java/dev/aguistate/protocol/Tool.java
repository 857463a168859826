package dev.aguistate.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool the client offers: {@code parameters} is a raw JSON Schema and may be absent. */
public record Tool(String name, String description, JsonNode parameters, JsonNode metadata) {}
