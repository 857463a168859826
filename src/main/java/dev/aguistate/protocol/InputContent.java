package dev.aguistate.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;

/** One part of multimodal user content, discriminated on {@code "type"}. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.EXISTING_PROPERTY, property = "type",
        visible = true)
@JsonSubTypes({
    @JsonSubTypes.Type(value = InputContent.TextPart.class, name = "text"),
    @JsonSubTypes.Type(value = InputContent.MediaPart.class, names = {"image", "audio", "video", "document"}),
    @JsonSubTypes.Type(value = InputContent.BinaryPart.class, name = "binary"),
})
public sealed interface InputContent {

    record TextPart(String text) implements InputContent {
        @JsonProperty("type")
        public String type() { return "text"; }
    }

    /** {@code type} is image, audio, video or document. */
    record MediaPart(String type, Source source, JsonNode metadata) implements InputContent {}

    /** Legacy part: at least one of {@code id}, {@code url} or {@code data} is set. */
    record BinaryPart(String mimeType, String id, String url, String data, String filename) implements InputContent {
        @JsonProperty("type")
        public String type() { return "binary"; }
    }

    /** {@code type} is {@code "data"} (base64 {@code value}, {@code mimeType} required) or {@code "url"}. */
    record Source(String type, String value, String mimeType) {}
}
