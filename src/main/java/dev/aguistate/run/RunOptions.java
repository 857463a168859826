package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.agent.Multitask;
import dev.aguistate.agent.OnDisconnect;
import dev.aguistate.protocol.InvalidRunInput;
import dev.aguistate.protocol.RunAgentInput;

/**
 * What a request asks of the server in {@code forwardedProps}, besides the AG-UI input itself: read and checked once,
 * when the request arrives, on every route; the session and the run read this record, never the props.
 *
 * @param onDisconnect          {@code onDisconnect}: what the run does when its client leaves; null when the request
 *                              names none (the agent's or the server's policy then)
 * @param predictedStateDeltas  {@code predictedStateDeltas}: false for a client that predicts state from
 *                              {@code TOOL_CALL_ARGS} itself (CopilotKit's PredictState does): it still gets
 *                              {@code CUSTOM PredictState}, the tool call's arguments and the state after the tool ran,
 *                              but no {@code STATE_DELTA} per argument fragment. Absent: true
 * @param rewindBeforeMessageId {@code rewindBeforeMessageId}: drop the stored messages from this one on (ag-ui
 *                              #2154); null for none
 * @param lastSeenEventId       {@code lastSeenEventId}: a connection's cursor, for clients that cannot set
 *                              {@code Last-Event-ID}; null when absent or not a string (a cursor that is not one is
 *                              ignored, as a client's own ids are)
 * @param multitask             {@code multitask}: what the request does when its thread is busy; null when the
 *                              request names none (the agent's or the server's strategy then)
 */
public record RunOptions(OnDisconnect onDisconnect, boolean predictedStateDeltas, String rewindBeforeMessageId,
                         String lastSeenEventId, Multitask multitask) {

    /** What a request without {@code forwardedProps} asks for. */
    public static final RunOptions DEFAULTS = new RunOptions(null, true, null, null, null);

    /** These options, with the stored messages from {@code messageId} on dropped ({@code rewindBeforeMessageId}). */
    public RunOptions rewoundBefore(String messageId) {
        return new RunOptions(onDisconnect, predictedStateDeltas, messageId, lastSeenEventId, multitask);
    }

    /** @throws InvalidRunInput naming the option when its value has the wrong type, or names no policy */
    public static RunOptions of(RunAgentInput input) {
        JsonNode props = input.forwardedProps();
        if (props == null || !props.isObject()) {
            return DEFAULTS;
        }
        return new RunOptions(onDisconnect(props.get("onDisconnect")),
                predictedStateDeltas(props.get("predictedStateDeltas")),
                rewindBefore(props.get("rewindBeforeMessageId")), lastSeen(props.get("lastSeenEventId")),
                multitask(props.get("multitask")));
    }

    private static OnDisconnect onDisconnect(JsonNode named) {
        if (named == null) {
            return null;
        }
        return OnDisconnect.named(named.isTextual() ? named.textValue() : null).orElseThrow(() ->
                InvalidRunInput.invalid("forwardedProps.onDisconnect must be \"stop\" or \"continue\""));
    }

    private static Multitask multitask(JsonNode named) {
        if (named == null) {
            return null;
        }
        return Multitask.named(named.isTextual() ? named.textValue() : null).orElseThrow(() ->
                InvalidRunInput.invalid("forwardedProps.multitask must be one of " + Multitask.choices()));
    }

    private static boolean predictedStateDeltas(JsonNode value) {
        if (value == null || value.isNull()) {
            return true;
        }
        if (!value.isBoolean()) {
            throw InvalidRunInput.invalid("forwardedProps.predictedStateDeltas must be true or false");
        }
        return value.booleanValue();
    }

    private static String rewindBefore(JsonNode messageId) {
        if (messageId == null) {
            return null;
        }
        if (!messageId.isTextual()) {
            throw InvalidRunInput.invalid("forwardedProps.rewindBeforeMessageId must be a message id (a string)");
        }
        return messageId.textValue();
    }

    private static String lastSeen(JsonNode cursor) {
        return cursor != null && cursor.isTextual() ? cursor.textValue() : null;
    }
}
