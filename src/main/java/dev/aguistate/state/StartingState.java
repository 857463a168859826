package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The state a run starts from: the stored layers with the client's keys laid over them. The client's edits win,
 * except on keys only the server may change ({@code app:} and the agent's server-owned keys), keys that never
 * leave a run ({@code temp:}), and keys holding a proposal that still awaits the user's answer (the client shows
 * the proposal; the server keeps what was there before). A pure function: no I/O, no logging.
 *
 * @param state       the starting state, checked against the schema
 * @param ignoredKeys the client's keys whose different value was ignored because the server owns them
 */
public record StartingState(State state, List<String> ignoredKeys) {

    public StartingState {
        ignoredKeys = List.copyOf(ignoredKeys);
    }

    /**
     * @param client          the state the client sent: a JSON object, or null/absent for none
     * @param serverOwnedKeys the agent's declared server-owned keys ({@code app:} keys are always server-owned)
     * @param proposedKeys    keys whose proposal awaits the user's answer
     * @throws StateWriteException when the client's state is not an object, or the result breaks the schema
     */
    /**
     * A client's state is a JSON object, or null/absent for none, for every agent.
     *
     * @throws StateWriteException when it is anything else
     */
    public static void requireObject(JsonNode client) {
        if (client != null && !client.isNull() && !client.isObject()) {
            throw new StateWriteException("(root)", "must be a JSON object but got " + JsonType.of(client).schemaName());
        }
    }

    public static StartingState of(StateLayers stored, JsonNode client, StateSchema schema,
                                   Set<String> serverOwnedKeys, Set<String> proposedKeys) {
        requireObject(client);
        ObjectNode merged = stored.merged();
        if (!schema.freeForm()) {
            // stored shared keys may belong to other agents' schemas
            merged.retain(schema.keys().stream().map(StateKey::name).toList());
        }
        List<String> ignored = new ArrayList<>();
        if (client != null && client.isObject()) {
            client.fields().forEachRemaining(e -> {
                String key = e.getKey();
                if (proposedKeys.contains(key)) {
                    return;
                }
                if (StateScopes.isApp(key) || StateScopes.isTemp(key) || serverOwnedKeys.contains(key)) {
                    if (!e.getValue().equals(merged.get(key))) {
                        ignored.add(key);
                    }
                } else {
                    merged.set(key, e.getValue());
                }
            });
        }
        return new StartingState(new State(schema, merged), ignored);
    }
}
