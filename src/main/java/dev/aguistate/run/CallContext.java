package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.tools.CallerCredential;
import dev.aguistate.tools.ToolContext;
import io.opentelemetry.context.Context;
import java.util.Optional;

/** One tool call's context: the round's view of the state and its activities, the run's caller, the call's span. */
record CallContext(ToolEffects.RoundEffects round, String toolCallId, Optional<CallerCredential> caller,
                   Context trace) implements ToolContext {

    @Override
    public JsonNode state(String key) {
        return round.state(key);
    }

    @Override
    public void updateState(String key, JsonNode value) {
        round.updateState(key, value);
    }

    @Override
    public void activity(String activityType, JsonNode content) {
        round.activity(toolCallId, activityType, content);
    }
}
