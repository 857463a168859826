package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/** The JSON Schema types a state key may declare. */
public enum JsonType {
    STRING, INTEGER, NUMBER, BOOLEAN, OBJECT, ARRAY, NULL;

    /** True if {@code value} is of this type; an integer is also a number, as in JSON Schema. */
    public boolean matches(JsonNode value) {
        return switch (this) {
            case STRING -> value.isTextual();
            case INTEGER -> value.isIntegralNumber() || (value.isFloatingPointNumber() && value.canConvertToExactIntegral());
            case NUMBER -> value.isNumber();
            case BOOLEAN -> value.isBoolean();
            case OBJECT -> value.isObject();
            case ARRAY -> value.isArray();
            case NULL -> value.isNull();
        };
    }

    /** The JSON Schema name, e.g. {@code "string"}. */
    public String schemaName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static JsonType of(JsonNode value) {
        for (JsonType type : new JsonType[] {NULL, BOOLEAN, INTEGER, NUMBER, STRING, ARRAY, OBJECT}) {
            if (type.matches(value)) {
                return type;
            }
        }
        throw new IllegalArgumentException("not a JSON value: " + value.getNodeType());
    }

    public static JsonType fromSchemaName(String name) {
        for (JsonType type : values()) {
            if (type.schemaName().equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown JSON Schema type '" + name
                + "' (expected string, integer, number, boolean, object, array or null)");
    }
}
