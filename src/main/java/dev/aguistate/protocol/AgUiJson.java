package dev.aguistate.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDate;

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
            .addModule(new SimpleModule("iso-instants").addSerializer(Instant.class, new IsoInstant()))
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

    /**
     * An instant as {@link Instant#toString} writes it (as Jackson's own serializer did), without the formatter:
     * {@code DateTimeFormatter} allocated about half a kilobyte per instant, and every commit writes the time of each
     * message of its thread. Years outside 0000-9999 (a sign, five digits) are left to {@code toString}.
     */
    private static final class IsoInstant extends StdSerializer<Instant> {

        private static final long FIRST_DAY = LocalDate.of(0, 1, 1).toEpochDay();
        private static final long LAST_DAY = LocalDate.of(9999, 12, 31).toEpochDay();
        private static final int SECONDS_A_DAY = 86_400;

        IsoInstant() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator json, SerializerProvider provider) throws IOException {
            long seconds = value.getEpochSecond();
            long day = Math.floorDiv(seconds, SECONDS_A_DAY);
            if (day < FIRST_DAY || day > LAST_DAY) {
                json.writeString(value.toString());
                return;
            }
            LocalDate date = LocalDate.ofEpochDay(day);
            int second = (int) Math.floorMod(seconds, SECONDS_A_DAY);
            int nano = value.getNano();
            char[] text = new char[30]; // 2026-11-27T22:49:22.123456789Z
            int at = digits(text, 0, date.getYear(), 4);
            text[at++] = '-';
            at = digits(text, at, date.getMonthValue(), 2);
            text[at++] = '-';
            at = digits(text, at, date.getDayOfMonth(), 2);
            text[at++] = 'T';
            at = digits(text, at, second / 3600, 2);
            text[at++] = ':';
            at = digits(text, at, second / 60 % 60, 2);
            text[at++] = ':';
            at = digits(text, at, second % 60, 2);
            if (nano > 0) { // in groups of three digits, as many as it takes
                text[at++] = '.';
                if (nano % 1_000_000 == 0) {
                    at = digits(text, at, nano / 1_000_000, 3);
                } else if (nano % 1000 == 0) {
                    at = digits(text, at, nano / 1000, 6);
                } else {
                    at = digits(text, at, nano, 9);
                }
            }
            text[at++] = 'Z';
            json.writeString(text, 0, at);
        }

        /** {@code value} as exactly {@code width} decimal digits at {@code at}; where the next character goes. */
        private static int digits(char[] text, int at, int value, int width) {
            for (int i = at + width - 1; i >= at; i--) {
                text[i] = (char) ('0' + value % 10);
                value /= 10;
            }
            return at + width;
        }
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
