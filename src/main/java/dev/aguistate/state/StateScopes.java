package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Where a state key lives, by its prefix: {@code user:} keys are shared by all threads of a user, {@code app:}
 * keys by everyone (and only the server may change them), {@code temp:} keys exist only inside one run (never
 * stored, never sent to the client); unprefixed keys belong to the thread.
 */
public final class StateScopes {

    public static final String USER = "user:";
    public static final String APP = "app:";
    public static final String TEMP = "temp:";

    private StateScopes() {}

    public static boolean isTemp(String key) {
        return key.startsWith(TEMP);
    }

    public static boolean isApp(String key) {
        return key.startsWith(APP);
    }

    /** The keys of {@code state} with the prefix (or, for {@code null}, the unprefixed thread keys). */
    public static ObjectNode part(JsonNode state, String prefix) {
        ObjectNode part = JsonNodeFactory.instance.objectNode();
        if (state != null && state.isObject()) {
            state.fields().forEachRemaining(e -> {
                if (prefix == null ? !scoped(e.getKey()) : e.getKey().startsWith(prefix)) {
                    part.set(e.getKey(), e.getValue().deepCopy());
                }
            });
        }
        return part;
    }

    /** What the client may see of a state: everything but {@code temp:} keys. */
    public static JsonNode visible(JsonNode state) {
        if (state == null || !state.isObject()) {
            return state;
        }
        ObjectNode visible = ((ObjectNode) state).deepCopy();
        for (Iterator<Map.Entry<String, JsonNode>> it = visible.fields(); it.hasNext(); ) {
            if (isTemp(it.next().getKey())) {
                it.remove();
            }
        }
        return visible;
    }

    private static boolean scoped(String key) {
        return key.startsWith(USER) || key.startsWith(APP) || key.startsWith(TEMP);
    }
}
