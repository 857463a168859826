package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.state.State;
import dev.aguistate.state.StateScopes;

/** The run's shared state, or none when the agent keeps no state. */
final class RunState {

    private State state;

    RunState(State initial) {
        this.state = initial;
    }

    boolean kept() {
        return state != null;
    }

    State current() {
        if (state == null) {
            throw new IllegalStateException("the agent keeps no state");
        }
        return state;
    }

    void replace(State next) {
        this.state = next;
    }

    /** The state as the client may see it: without {@code temp:} keys. */
    JsonNode clientView() {
        return StateScopes.visible(current().toJson());
    }
}
