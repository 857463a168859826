package dev.aguistate.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/** A pause that needs the client's answer; {@code expiresAt} is ISO-8601. */
public record Interrupt(String id, String reason, String message, String toolCallId, JsonNode responseSchema,
                        String expiresAt, JsonNode metadata) {}
