package dev.aguistate.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.context.Context;
import java.util.Optional;

/**
 * What a running backend tool may do besides returning its result: read and write the run's shared state; and what
 * it knows of its call: whom the run acts for, and the call's span. (A stop of the run reaches a tool whose handler
 * returned a {@code Uni} as the cancellation of that {@code Uni}.)
 */
public interface ToolContext {

    /** A copy of the state key's current value, or null when the state has no such key. */
    JsonNode state(String key);

    /**
     * Merges {@code value} into the state key now (with the key's handler) and shows the change to the client at
     * once as a small STATE_DELTA — for tools that report progress, like a task list ticking off steps. Unlike
     * {@code outputsToState}, each write stands on its own: a later failure of the tool does not undo it.
     *
     * @throws IllegalStateException when the agent keeps no state
     * @throws dev.aguistate.state.StateWriteException when the value does not fit the state schema
     */
    void updateState(String key, JsonNode value);

    /**
     * The credential the run's caller proved themselves with, for a tool that acts as that user; empty for an
     * anonymous caller. Never log it.
     */
    default Optional<CallerCredential> caller() {
        return Optional.empty();
    }

    /** The call's {@code execute_tool} span, as the parent of what the tool does; the root context when untraced. */
    default Context trace() {
        return Context.root();
    }
}
