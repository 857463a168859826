package dev.aguistate.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The JSON rules of the wire, in one place.
 *
 * <ul>
 *   <li>Optional fields are omitted, never written as {@code null}: the official client rejects {@code null}
 *       for most optional fields. {@code null} inside free JSON (state, patch values) is kept, because those
 *       are {@link JsonNode} trees.</li>
 *   <li>Input is tolerant of unknown fields (new protocol fields, {@code protocolVersion}) but strict about
 *       types: a number where a string id belongs is an error, not silently coerced.</li>
 *   <li>Trailing garbage after the JSON document is an error.</li>
 * </ul>
 */
public final class AgUiJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            // timestamps (thread API, stores) as ISO-8601 text
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .withCoercionConfig(LogicalType.Textual, cfg -> cfg
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Collection, cfg -> cfg
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail))
            .build();

    private AgUiJson() {}

    /** The shared mapper; thread-safe. Do not reconfigure it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** Compact JSON of any wire value. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not serializable as AG-UI JSON: " + value.getClass().getName(), e);
        }
    }

    public static byte[] writeBytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not serializable as AG-UI JSON: " + value.getClass().getName(), e);
        }
    }

    public static <T> T read(String json, Class<T> type) throws JsonProcessingException {
        return MAPPER.readValue(json, type);
    }

    public static <T> T read(byte[] json, Class<T> type) throws IOException {
        return MAPPER.readValue(json, type);
    }

    /** Parses JSON text that is known to be valid (e.g. produced by us); fails loudly otherwise. */
    public static JsonNode tree(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
