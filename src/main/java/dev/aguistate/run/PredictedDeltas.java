package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.RunAgentInput;

/**
 * A client that predicts state from {@code TOOL_CALL_ARGS} itself (CopilotKit's PredictState does) can opt out of
 * the server's predicted {@code STATE_DELTA}s with {@code forwardedProps.predictedStateDeltas: false}: it still gets
 * {@code CUSTOM PredictState}, the tool call's arguments and the state after the tool ran, but no delta per argument
 * fragment. Absent or {@code true}: the server predicts.
 */
public final class PredictedDeltas {

    public static final String FORWARDED_PROP = "predictedStateDeltas";

    private PredictedDeltas() {}

    /** @throws IllegalArgumentException when the request's value is not a boolean */
    public static boolean wanted(RunAgentInput input) {
        JsonNode value = input.forwardedProps() == null ? null : input.forwardedProps().get(FORWARDED_PROP);
        if (value == null || value.isNull()) {
            return true;
        }
        if (!value.isBoolean()) {
            throw new IllegalArgumentException("forwardedProps." + FORWARDED_PROP + " must be true or false");
        }
        return value.booleanValue();
    }
}
