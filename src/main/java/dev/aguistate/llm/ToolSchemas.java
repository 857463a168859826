package dev.aguistate.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Raw JSON Schema (as AG-UI clients send it) to langchain4j tool specifications and back.
 *
 * <p>langchain4j only accepts an object schema at the top; every property (and {@code $defs} entry) is passed
 * through verbatim as a {@link JsonRawSchema}, so keywords langchain4j does not model ({@code format},
 * {@code oneOf}, vendor extensions) reach the LLM untouched.
 */
public final class ToolSchemas {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ToolSchemas() {}

    public static ToolSpecification specification(String name, String description, JsonNode parameters) {
        ToolSpecification.Builder spec = ToolSpecification.builder().name(name);
        if (description != null && !description.isBlank()) {
            spec.description(description);
        }
        return spec.parameters(objectSchema(parameters)).build();
    }

    /** The parameters of a specification as JSON Schema again (what {@link #specification} was given). */
    public static ObjectNode parameters(ToolSpecification spec) {
        ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
        JsonObjectSchema params = spec.parameters();
        ObjectNode properties = schema.putObject("properties");
        if (params == null) {
            return schema;
        }
        params.properties().forEach((name, element) -> properties.set(name, toJson(element)));
        if (params.required() != null && !params.required().isEmpty()) {
            params.required().forEach(schema.putArray("required")::add);
        }
        return schema;
    }

    private static JsonObjectSchema objectSchema(JsonNode parameters) {
        JsonObjectSchema.Builder object = JsonObjectSchema.builder();
        if (parameters == null || !parameters.isObject()) {
            return object.build();
        }
        if (parameters.hasNonNull("description")) {
            object.description(parameters.get("description").asText());
        }
        Map<String, JsonSchemaElement> properties = new LinkedHashMap<>();
        parameters.path("properties").fields().forEachRemaining(p -> properties.put(p.getKey(), raw(p.getValue())));
        object.addProperties(properties);
        List<String> required = new ArrayList<>();
        parameters.path("required").forEach(r -> required.add(r.asText()));
        if (!required.isEmpty()) {
            object.required(required);
        }
        if (parameters.path("additionalProperties").isBoolean()) {
            object.additionalProperties(parameters.get("additionalProperties").booleanValue());
        }
        Map<String, JsonSchemaElement> definitions = new LinkedHashMap<>();
        parameters.path("$defs").fields().forEachRemaining(d -> definitions.put(d.getKey(), raw(d.getValue())));
        if (!definitions.isEmpty()) {
            object.definitions(definitions);
        }
        return object.build();
    }

    private static JsonRawSchema raw(JsonNode schema) {
        return JsonRawSchema.from(schema.toString());
    }

    private static JsonNode toJson(JsonSchemaElement element) {
        if (element instanceof JsonRawSchema raw) {
            try {
                return JSON.readTree(raw.schema());
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("raw schema built from JSON is JSON", e);
            }
        }
        // Only raw schemas are built here; anything else is described by its type alone.
        return JsonNodeFactory.instance.objectNode();
    }
}
