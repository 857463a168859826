package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A thread's state as the stores keep it, in three layers by scope: the thread's own (unprefixed) keys, the
 * user's {@code user:} keys (shared by all their threads) and everyone's {@code app:} keys. A run sees them
 * {@link #merged() merged}; its final state is {@link #absorb split back}. Immutable: every method returns copies.
 */
public record StateLayers(ObjectNode thread, ObjectNode user, ObjectNode app) {

    public static StateLayers empty() {
        JsonNodeFactory json = JsonNodeFactory.instance;
        return new StateLayers(json.objectNode(), json.objectNode(), json.objectNode());
    }

    /** Each layer keeps only its own keys: a scope object may hold keys of other scopes only by mistake. */
    public StateLayers {
        thread = StateScopes.part(Objects.requireNonNull(thread, "thread"), null);
        user = StateScopes.part(Objects.requireNonNull(user, "user"), StateScopes.USER);
        app = StateScopes.part(Objects.requireNonNull(app, "app"), StateScopes.APP);
    }

    /** The state a run starts from before the client's state is laid over it. */
    public ObjectNode merged() {
        ObjectNode merged = thread.deepCopy();
        merged.setAll(user.deepCopy());
        merged.setAll(app.deepCopy());
        return merged;
    }

    /**
     * The layers after a run that ended with {@code finalState}: each of its keys replaces the stored one in its
     * layer, stored keys it did not have (another agent's) stay, and {@code temp:} keys are dropped. A
     * non-object state changes nothing.
     */
    public StateLayers absorb(JsonNode finalState) {
        return new StateLayers(thread.deepCopy().setAll(StateScopes.part(finalState, null)),
                user.deepCopy().setAll(StateScopes.part(finalState, StateScopes.USER)),
                app.deepCopy().setAll(StateScopes.part(finalState, StateScopes.APP)));
    }
}
