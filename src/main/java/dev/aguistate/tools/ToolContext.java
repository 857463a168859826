package dev.aguistate.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opentelemetry.context.Context;
import java.util.Optional;

/**
 * What a running backend tool may do besides returning its result: read and write the run's shared state, show the
 * client its progress; and what it knows of its call: whom the run acts for, and the call's span. (A stop of the run reaches a tool whose handler
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

    /** The {@code activityType} of the activity {@link #progress} shows. */
    String PROGRESS = "tool-progress";

    /**
     * Shows the client how far the call has got, at once and before its result: the activity {@value #PROGRESS}
     * with the content {@code {"fraction": 0.4, "message": "Reading sources"}} (see {@link #activity}).
     *
     * @param fraction how much is done, from 0 to 1 (clamped); {@code Double.NaN} when unknown (no {@code fraction})
     * @param message  what the tool is doing now, or null
     */
    default void progress(double fraction, String message) {
        ObjectNode content = JsonNodeFactory.instance.objectNode();
        if (!Double.isNaN(fraction)) {
            content.put("fraction", Math.max(0, Math.min(1, fraction)));
        }
        if (message != null) {
            content.put("message", message);
        }
        activity(PROGRESS, content);
    }

    /**
     * Shows the client an activity of this call (AG-UI's activity messages, which a UI renders as it likes: a
     * progress bar, partial results, a card). The call's first activity of a type reaches the client at once as an
     * {@code ACTIVITY_SNAPSHOT}; each later one replaces that message's content and goes as an
     * {@code ACTIVITY_DELTA} JSON Patch, coalesced like predictive state deltas (the latest content within
     * {@code agui.state.delta-interval}, everything pending before the call's result). The message is kept in the
     * thread with its last content and comes back on reload; the LLM never sees it. Outside a run, nothing happens.
     *
     * @param activityType what kind of activity it is, for the UI to choose its renderer
     * @param content      a JSON object
     * @throws IllegalArgumentException when {@code content} is not a JSON object
     */
    default void activity(String activityType, JsonNode content) {
    }

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
