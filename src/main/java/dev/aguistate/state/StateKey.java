package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.stream.Collectors;

/**
 * One declared state key: the types it accepts (several = a union; include {@link JsonType#NULL} for
 * nullable), what it means (shown to the LLM), its default, and how a write merges into the current value.
 *
 * @param handler merges {@code (current, written)} into the new value; {@code current} may be null
 */
public record StateKey(String name, Set<JsonType> types, String description, JsonNode defaultValue,
                       BinaryOperator<JsonNode> handler) {

    public StateKey {
        Objects.requireNonNull(name, "name");
        types = types == null || types.isEmpty() ? EnumSet.allOf(JsonType.class) : Set.copyOf(types);
        description = description == null ? "" : description;
        handler = handler == null ? defaultHandler(types) : handler;
    }

    /** Arrays concatenate, everything else is replaced (Haystack's defaults). */
    static BinaryOperator<JsonNode> defaultHandler(Set<JsonType> types) {
        return types.equals(Set.of(JsonType.ARRAY)) ? MergeHandlers.CONCATENATE : MergeHandlers.REPLACE;
    }

    public boolean accepts(JsonNode value) {
        return types.stream().anyMatch(t -> t.matches(value));
    }

    /** E.g. {@code "string or null"}. */
    public String typeDescription() {
        return types.stream().map(JsonType::schemaName).sorted().collect(Collectors.joining(" or "));
    }
}
