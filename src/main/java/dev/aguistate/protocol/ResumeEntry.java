package dev.aguistate.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/** The client's answer to an interrupt; {@code status} is "resolved" or "cancelled". */
public record ResumeEntry(String interruptId, String status, JsonNode payload, JsonNode metadata) {}
