package dev.aguistate.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A pause that needs the client's answer; {@code expiresAt} is ISO-8601. {@code subagentRunId} (AG-UI 1.0) names the
 * sub-agent run that asked, null when the thread's own agent did.
 */
public record Interrupt(String id, String reason, String message, String toolCallId, JsonNode responseSchema,
                        String expiresAt, JsonNode metadata, String subagentRunId) {

    public Interrupt(String id, String reason, String message, String toolCallId, JsonNode responseSchema,
                     String expiresAt, JsonNode metadata) {
        this(id, reason, message, toolCallId, responseSchema, expiresAt, metadata, null);
    }

    /** This interrupt as the sub-agent run {@code run}'s, with {@code about} (what its parent needs to resume it). */
    public Interrupt askedBy(String run, JsonNode about) {
        return new Interrupt(id, reason, message, toolCallId, responseSchema, expiresAt, about, run);
    }
}
