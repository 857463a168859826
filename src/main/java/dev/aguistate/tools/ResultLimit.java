package dev.aguistate.tools;

import dev.aguistate.protocol.InputContent;
import dev.aguistate.protocol.MessageContent;
import java.util.ArrayList;
import java.util.List;

/**
 * The most characters a tool result from outside (an MCP server, an HTTP endpoint) may bring into the run, counted
 * over its text and the encoded bytes of its media: what lies beyond is left out and a note says so, so that a
 * service answering megabytes neither floods the stream nor the LLM's context.
 */
public record ResultLimit(int maxChars) {

    public ResultLimit {
        if (maxChars < 1) {
            throw new IllegalArgumentException("agui.tools.max-result-chars must be positive: " + maxChars);
        }
    }

    /** The content as it is when it fits, else its beginning (whole parts, then part of a text) and the note. */
    public MessageContent cut(MessageContent content) {
        if (content instanceof MessageContent.Text text) {
            return text.text().length() <= maxChars ? text
                    : new MessageContent.Text(text.text().substring(0, maxChars) + note(text.text().length()));
        }
        List<InputContent> parts = ((MessageContent.Parts) content).parts();
        long total = parts.stream().mapToLong(ResultLimit::size).sum();
        if (total <= maxChars) {
            return content;
        }
        List<InputContent> kept = new ArrayList<>();
        long left = maxChars;
        for (InputContent part : parts) {
            long size = size(part);
            if (size <= left) {
                kept.add(part);
                left -= size;
            } else {
                if (part instanceof InputContent.TextPart text && left > 0) {
                    kept.add(new InputContent.TextPart(text.text().substring(0, (int) left)));
                }
                break;
            }
        }
        kept.add(new InputContent.TextPart(note(total).strip()));
        return new MessageContent.Parts(List.copyOf(kept));
    }

    /** A text cut to the limit, with the note: for results that are text from the start. */
    public String cut(String text) {
        return ((MessageContent.Text) cut(new MessageContent.Text(text))).text();
    }

    private String note(long total) {
        return "\n[The result was cut here: it had " + total + " characters, and tools may return at most " + maxChars
                + " (agui.tools.max-result-chars).]";
    }

    private static long size(InputContent part) {
        if (part instanceof InputContent.TextPart text) {
            return text.text().length();
        }
        if (part instanceof InputContent.MediaPart media) {
            return media.source() == null || media.source().value() == null ? 0 : media.source().value().length();
        }
        InputContent.BinaryPart binary = (InputContent.BinaryPart) part;
        return (binary.data() == null ? 0 : binary.data().length()) + (binary.url() == null ? 0 : binary.url().length());
    }
}
