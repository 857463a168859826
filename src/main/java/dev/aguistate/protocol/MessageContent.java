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

/**
 * The content of a user or tool message (and of {@code TOOL_CALL_RESULT}): a plain string, or content parts (text,
 * image, audio, video, document; the legacy binary part in user messages). Kept as sent, so that what a client
 * stored is what it gets back.
 */
@JsonDeserialize(using = MessageContent.Deserializer.class)
public sealed interface MessageContent {

    /** The content as plain text: the string itself, or the text parts joined by newlines. */
    String text();

    record Text(@JsonValue String text) implements MessageContent {}

    record Parts(@JsonValue List<InputContent> parts) implements MessageContent {
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

    final class Deserializer extends JsonDeserializer<MessageContent> {
        @Override
        public MessageContent deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
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
            return ctxt.reportInputMismatch(MessageContent.class,
                    "message content must be a string or an array of content parts, got %s", node.getNodeType());
        }
    }
}
