package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BinaryOperator;

/**
 * The declared keys of an agent's state. {@link #FREE_FORM} declares none: any key, any JSON, replaced on write.
 * Build one with {@link #builder()}.
 */
public final class StateSchema {

    public static final StateSchema FREE_FORM = new StateSchema(Map.of());

    private final Map<String, StateKey> keys;

    private StateSchema(Map<String, StateKey> keys) {
        this.keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys)); // declaration order, stable prompts
    }

    public boolean freeForm() {
        return keys.isEmpty();
    }

    public Optional<StateKey> key(String name) {
        return Optional.ofNullable(keys.get(name));
    }

    public Collection<StateKey> keys() {
        return keys.values();
    }

    /** The whole state as a JSON Schema object (every key required, no others), e.g. for structured output. */
    public ObjectNode toJsonSchema() {
        ObjectNode schema = declaredKeys(false);
        keys.keySet().forEach(schema.putArray("required")::add);
        return schema.put("additionalProperties", false);
    }

    /**
     * The state as a client may hold it, as JSON Schema: the declared keys with their defaults and no others, each
     * absent until set; free-form state is any object.
     */
    public ObjectNode toClientSchema() {
        ObjectNode schema = declaredKeys(true);
        return freeForm() ? schema : schema.put("additionalProperties", false);
    }

    private ObjectNode declaredKeys(boolean withDefaults) {
        ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
        if (freeForm()) {
            return schema;
        }
        ObjectNode properties = schema.putObject("properties");
        for (StateKey key : keys.values()) {
            ObjectNode property = properties.putObject(key.name());
            if (key.types().size() == 1) {
                property.put("type", key.types().iterator().next().schemaName());
            } else {
                key.types().stream().map(JsonType::schemaName).sorted().forEach(property.putArray("type")::add);
            }
            if (!key.description().isBlank()) {
                property.put("description", key.description());
            }
            if (withDefaults && key.defaultValue() != null) {
                property.set("default", key.defaultValue().deepCopy());
            }
        }
        return schema;
    }

    /** An object holding the declared defaults. */
    public ObjectNode defaults() {
        ObjectNode defaults = JsonNodeFactory.instance.objectNode();
        keys.values().stream().filter(k -> k.defaultValue() != null)
                .forEach(k -> defaults.set(k.name(), k.defaultValue().deepCopy()));
        return defaults;
    }

    /**
     * Checks a value for a key: undeclared keys are accepted only by a free-form schema.
     *
     * @throws StateWriteException naming the key, the expected and the actual type
     */
    public void check(String name, JsonNode value) {
        StateKey key = keys.get(name);
        if (key == null) {
            if (!freeForm()) {
                throw new StateWriteException(name, "is not a key of this state (declared: "
                        + String.join(", ", keys.keySet()) + ")");
            }
            return;
        }
        if (!key.accepts(value)) {
            throw new StateWriteException(name, "expects " + key.typeDescription() + " but got "
                    + JsonType.of(value).schemaName());
        }
    }

    /** The merge handler for a key: its declared one, or replace for undeclared keys. */
    BinaryOperator<JsonNode> handler(String name) {
        StateKey key = keys.get(name);
        return key == null ? MergeHandlers.REPLACE : key.handler();
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private final Map<String, StateKey> keys = new LinkedHashMap<>();

        /** A key of one or more types (more = a union; add NULL for nullable), with the default handler. */
        public Builder key(String name, String description, JsonType type, JsonType... moreTypes) {
            return key(new StateKey(name, EnumSet.of(type, moreTypes), description, null, null));
        }

        public Builder key(StateKey key) {
            if (key.defaultValue() != null && !key.accepts(key.defaultValue())) {
                throw new IllegalArgumentException("the default of state key " + key.name() + " is "
                        + JsonType.of(key.defaultValue()).schemaName() + ", but the key expects "
                        + key.typeDescription());
            }
            if (keys.put(key.name(), key) != null) {
                throw new IllegalArgumentException("state key " + key.name() + " is declared twice");
            }
            return this;
        }

        public StateSchema build() {
            return new StateSchema(keys);
        }
    }
}
