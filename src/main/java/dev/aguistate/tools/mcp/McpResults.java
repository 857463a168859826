package dev.aguistate.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.InputContent;
import dev.aguistate.protocol.MessageContent;
import dev.aguistate.tools.ResultLimit;
import dev.aguistate.tools.ToolFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code tools/call} result as a tool result: text parts as text, images and audio as AG-UI content parts, an
 * embedded resource as its text (or, when it is an image, audio or PDF blob, as that part), a resource link as a line
 * naming it. A result of text only stays a string, which every client and model reads. {@code isError} makes the call
 * a failure the LLM is told about; a result that is not one fails the call too.
 */
final class McpResults {

    private McpResults() {}

    static MessageContent content(String tool, JsonNode result, ResultLimit limit) throws ToolFailure {
        JsonNode content = result.path("content");
        if (!result.isObject() || !(content.isArray() || content.isMissingNode())) {
            throw new ToolFailure(ToolFailure.Kind.RESULT_NOT_TEXT,
                    "the MCP server answered " + tool + " with something that is not a tool result", null);
        }
        List<InputContent> parts = new ArrayList<>();
        content.forEach(part -> parts.add(part(part)));
        if (parts.isEmpty() && result.has("structuredContent")) {
            parts.add(new InputContent.TextPart(result.get("structuredContent").toString()));
        }
        boolean textOnly = parts.stream().allMatch(InputContent.TextPart.class::isInstance);
        MessageContent whole = textOnly ? new MessageContent.Text(new MessageContent.Parts(parts).text())
                : new MessageContent.Parts(List.copyOf(parts));
        if (result.path("isError").asBoolean(false)) {
            String said = whole.text().isBlank() ? "(no message)" : limit.cut(whole.text());
            throw new ToolFailure(ToolFailure.Kind.INVOCATION_FAILED, tool + " reported an error: " + said, null);
        }
        return limit.cut(whole);
    }

    private static InputContent part(JsonNode part) {
        String type = part.path("type").asText("");
        return switch (type) {
            case "text" -> new InputContent.TextPart(part.path("text").asText(""));
            case "image", "audio" -> media(type, part.path("data").asText(""), part.path("mimeType").asText(null));
            case "resource" -> resource(part.path("resource"));
            case "resource_link" -> new InputContent.TextPart("[resource " + part.path("name").asText("")
                    + ": " + part.path("uri").asText("") + "]");
            default -> new InputContent.TextPart("[a part of type '" + type + "' was left out]");
        };
    }

    private static InputContent resource(JsonNode resource) {
        String uri = resource.path("uri").asText("");
        if (resource.has("text")) {
            return new InputContent.TextPart("[resource " + uri + "]\n" + resource.path("text").asText(""));
        }
        String mimeType = resource.path("mimeType").asText("");
        String blob = resource.path("blob").asText("");
        if (mimeType.startsWith("image/")) {
            return media("image", blob, mimeType);
        }
        if (mimeType.startsWith("audio/")) {
            return media("audio", blob, mimeType);
        }
        if (mimeType.equals("application/pdf")) {
            return media("document", blob, mimeType);
        }
        return new InputContent.TextPart("[resource " + uri + " (" + (mimeType.isEmpty() ? "binary" : mimeType)
                + ", " + blob.length() + " base64 characters) was left out]");
    }

    private static InputContent media(String type, String base64, String mimeType) {
        return new InputContent.MediaPart(type, new InputContent.Source("data", base64, mimeType), null);
    }
}
