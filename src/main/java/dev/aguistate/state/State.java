package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.function.BinaryOperator;

/**
 * An agent's shared state: a JSON object whose keys follow a {@link StateSchema}.
 *
 * <p>Reads return copies, so callers cannot change the state behind its back. A write goes through the key's
 * merge handler ({@code (current, written) -> new}; arrays concatenate and everything else is replaced unless
 * the schema says otherwise, or the caller passes a handler for this one write), and the merged value is
 * type-checked against the schema: a violation throws {@link StateWriteException} naming the key, the expected
 * and the actual type, and leaves the state unchanged. With a free-form schema any key and value is accepted.
 * Not thread-safe: one run owns one state.
 */
public final class State {

    private final StateSchema schema;
    private final ObjectNode values;

    /** A state holding {@code values} (copied; {@code null} means empty) over the schema's defaults. */
    public State(StateSchema schema, JsonNode values) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.values = schema.defaults();
        if (values != null && !values.isNull()) {
            if (!values.isObject()) {
                throw new StateWriteException("(root)", "must be a JSON object but got " + JsonType.of(values).schemaName());
            }
            values.fields().forEachRemaining(e -> {
                schema.check(e.getKey(), e.getValue());
                this.values.set(e.getKey(), e.getValue().deepCopy());
            });
        }
    }

    public StateSchema schema() {
        return schema;
    }

    public boolean has(String key) {
        return values.has(key);
    }

    /** A copy of the key's value, or null when the state has no such key. */
    public JsonNode get(String key) {
        JsonNode value = values.get(key);
        return value == null ? null : value.deepCopy();
    }

    public JsonNode get(String key, JsonNode defaultValue) {
        JsonNode value = get(key);
        return value == null ? defaultValue : value;
    }

    /** Merges {@code value} into the key with its handler. */
    public void set(String key, JsonNode value) {
        set(key, value, schema.handler(key));
    }

    /** Merges {@code value} into the key with {@code handler} instead of the key's own, for this write only. */
    public void set(String key, JsonNode value, BinaryOperator<JsonNode> handler) {
        Objects.requireNonNull(value, "value (use NullNode for JSON null)");
        JsonNode merged;
        try {
            merged = handler.apply(values.get(key) == null ? null : values.get(key).deepCopy(), value.deepCopy());
        } catch (RuntimeException e) {
            throw new StateWriteException(key, "could not be merged: " + e.getMessage());
        }
        if (merged == null) {
            throw new StateWriteException(key, "could not be merged: the handler returned no value");
        }
        schema.check(key, merged);
        values.set(key, merged);
    }

    /** An independent copy: writes to it do not affect this state. */
    public State copy() {
        return new State(schema, values);
    }

    /** The whole state as JSON (a copy). */
    public ObjectNode toJson() {
        return values.deepCopy();
    }

    public static State empty(StateSchema schema) {
        return new State(schema, JsonNodeFactory.instance.objectNode());
    }
}
