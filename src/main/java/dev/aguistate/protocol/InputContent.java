package dev.aguistate.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One content part of a user or tool message, discriminated on {@code "type"}. The optional {@code id} and
 * {@code metadata} of AG-UI 1.0 are kept, so a stored part goes back as it came.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.EXISTING_PROPERTY, property = "type",
        visible = true)
@JsonSubTypes({
    @JsonSubTypes.Type(value = InputContent.TextPart.class, name = "text"),
    @JsonSubTypes.Type(value = InputContent.MediaPart.class, names = {"image", "audio", "video", "document"}),
    @JsonSubTypes.Type(value = InputContent.BinaryPart.class, name = "binary"),
})
public sealed interface InputContent {

    record TextPart(String text, String id, JsonNode metadata) implements InputContent {
        public TextPart(String text) { this(text, null, null); }
        @JsonProperty("type")
        public String type() { return "text"; }
    }

    /** {@code type} is image, audio, video or document. */
    record MediaPart(String type, String id, Source source, JsonNode metadata) implements InputContent {
        public MediaPart(String type, Source source, JsonNode metadata) { this(type, null, source, metadata); }
    }

    /** Legacy part: at least one of {@code id}, {@code url} or {@code data} is set. */
    record BinaryPart(String mimeType, String id, String url, String data, String filename) implements InputContent {
        @JsonProperty("type")
        public String type() { return "binary"; }
    }

    /**
     * {@code type} is {@code "data"} (base64 {@code value}, {@code mimeType} required), {@code "url"}, or (AG-UI
     * 1.0) {@code "file"}: {@code value} is a handle that {@code provider} issued (an OpenAI file id), readable only
     * there.
     */
    record Source(String type, String value, String mimeType, String provider) {
        public Source(String type, String value, String mimeType) { this(type, value, mimeType, null); }
    }
}
