package dev.aguistate.protocol;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A user message's content: a plain string, or multimodal parts (text, image, audio, video, document, binary). */
@JsonDeserialize(using = UserContent.Deserializer.class)
public sealed interface UserContent {

    /** The content as plain text: the string itself, or the text parts joined by newlines. */
    String text();

    record Text(@JsonValue String text) implements UserContent {}

    record Parts(@JsonValue List<InputContent> parts) implements UserContent {
        public String text() {
            List<String> texts = new ArrayList<>();
            for (InputContent part : parts) {
                if (part instanceof InputContent.TextPart t) {
                    texts.add(t.text());
                }
            }
            return String.join("\n", texts);
        }
    }

    final class Deserializer extends JsonDeserializer<UserContent> {
        @Override
        public UserContent deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode node = ctxt.readTree(p);
            if (node.isTextual()) {
                return new Text(node.textValue());
            }
            if (node.isArray()) {
                List<InputContent> parts = new ArrayList<>();
                for (JsonNode part : node) {
                    parts.add(ctxt.readTreeAsValue(part, InputContent.class));
                }
                return new Parts(List.copyOf(parts));
            }
            return ctxt.reportInputMismatch(UserContent.class,
                    "user message content must be a string or an array of content parts, got %s", node.getNodeType());
        }
    }
}
