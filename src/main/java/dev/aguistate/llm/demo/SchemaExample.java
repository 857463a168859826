package dev.aguistate.llm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A value that fits a JSON Schema, for the scripted demo model: the schema's own example where it has one. */
final class SchemaExample {

    private SchemaExample() {
    }

    /**
     * The schema's first {@code examples} entry, else its {@code const} or first {@code enum} value, else a value
     * built from its types with {@code text} as every string (numbered "Step n: text" inside arrays).
     */
    static JsonNode of(JsonNode schema, String text) {
        return of(schema, text, null);
    }

    private static JsonNode of(JsonNode schema, String text, Integer position) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        if (schema.path("examples").isArray() && !schema.get("examples").isEmpty()) {
            return schema.get("examples").get(0).deepCopy();
        }
        if (schema.has("const")) {
            return schema.get("const");
        }
        if (schema.path("enum").isArray() && !schema.get("enum").isEmpty()) {
            return schema.get("enum").get(0);
        }
        switch (type(schema)) {
            case "object" -> {
                ObjectNode object = json.objectNode();
                schema.path("properties").fields()
                        .forEachRemaining(p -> object.set(p.getKey(), of(p.getValue(), text, position)));
                return object;
            }
            case "array" -> {
                ArrayNode array = json.arrayNode();
                for (int i = 0; i < 3; i++) {
                    array.add(of(schema.path("items"), text, i + 1));
                }
                return array;
            }
            case "integer", "number" -> {
                return json.numberNode(position == null ? 1 : position);
            }
            case "boolean" -> {
                return json.booleanNode(true);
            }
            default -> {
                return json.textNode(position == null ? text : "Step " + position + ": " + text);
            }
        }
    }

    /** The schema's type, the first one if it lists several; empty when it names none. */
    static String type(JsonNode schema) {
        return schema.path("type").isArray() ? schema.get("type").path(0).asText() : schema.path("type").asText();
    }
}
