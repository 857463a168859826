package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.tools.CallerCredential;
import dev.aguistate.tools.ToolContext;
import io.opentelemetry.context.Context;
import java.util.Optional;

/** One tool call's context: the round's view of the state, and the run's caller and the call's span. */
record CallContext(ToolContext round, Optional<CallerCredential> caller, Context trace) implements ToolContext {

    @Override
    public JsonNode state(String key) {
        return round.state(key);
    }

    @Override
    public void updateState(String key, JsonNode value) {
        round.updateState(key, value);
    }
}
