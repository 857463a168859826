package dev.aguistate.llm;

import dev.langchain4j.http.client.sse.ServerSentEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Decodes a Server-Sent Events body incrementally, as its bytes arrive (the WHATWG event stream format).
 *
 * <p>A chunk may end anywhere, also inside a line or inside a multi-byte UTF-8 character: a line is decoded only
 * once it is complete. Lines end with LF, CRLF or CR. {@code data} lines of one event are joined with LF;
 * {@code event} names the event; lines starting with {@code :} are comments (proxies send them to keep a
 * connection alive) and are skipped, as are {@code id}, {@code retry} and unknown fields. An event without data
 * is not an event (as in langchain4j's own parser). At the end of the body an event whose lines are complete but
 * lack the closing blank line is still delivered; an unterminated last line is dropped.
 *
 * <p>Not thread-safe: one decoder per response, fed on one thread.
 */
final class SseDecoder {

    /** An event or line larger than this is not a chat-completion chunk: the body is not what we asked for. */
    static final int MAX_EVENT_BYTES = 8 * 1024 * 1024;

    private static final byte LF = '\n';
    private static final byte CR = '\r';
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    private final ArrayDeque<ServerSentEvent> decoded = new ArrayDeque<>();
    private int decodedChars;
    private byte[] line = new byte[256];
    private int lineLength;
    private boolean afterCr;
    private boolean firstLine = true;
    private String eventName;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;

    /** Thrown when an event grows beyond {@link #MAX_EVENT_BYTES}. */
    static final class EventTooLarge extends RuntimeException {
        EventTooLarge() {
            super("server-sent event larger than " + MAX_EVENT_BYTES + " bytes");
        }
    }

    /** Decodes these bytes; the events they complete become available through {@link #poll()}. */
    void feed(byte[] bytes) {
        for (byte b : bytes) {
            if (b == LF && afterCr) {
                afterCr = false; // the LF of a CRLF
            } else if (b == LF || b == CR) {
                afterCr = b == CR;
                endLine();
            } else {
                afterCr = false;
                append(b);
            }
        }
    }

    /** The body ended: delivers an event whose lines are complete; drops an unterminated line. */
    void endOfStream() {
        lineLength = 0;
        dispatch();
    }

    /** The next decoded event, or null if none is complete yet. */
    ServerSentEvent poll() {
        ServerSentEvent event = decoded.poll();
        if (event != null) {
            decodedChars -= event.data().length();
        }
        return event;
    }

    /** How much decoded data waits to be polled, in characters. */
    int backlog() {
        return decodedChars;
    }

    private void append(byte b) {
        if (lineLength == line.length) {
            if (line.length >= MAX_EVENT_BYTES) {
                throw new EventTooLarge();
            }
            line = Arrays.copyOf(line, Math.min(MAX_EVENT_BYTES, line.length * 2));
        }
        line[lineLength++] = b;
    }

    private void endLine() {
        int start = firstLine && startsWithBom() ? BOM.length : 0;
        firstLine = false;
        int length = lineLength - start;
        lineLength = 0;
        if (length == 0) {
            dispatch();
        } else if (line[start] != ':') {
            field(new String(line, start, length, StandardCharsets.UTF_8));
        }
    }

    private boolean startsWithBom() {
        return lineLength >= BOM.length && line[0] == BOM[0] && line[1] == BOM[1] && line[2] == BOM[2];
    }

    private void field(String text) {
        int colon = text.indexOf(':');
        String name = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(text.startsWith(" ", colon + 1) ? colon + 2 : colon + 1);
        if (name.equals("data")) {
            if (hasData) {
                data.append('\n');
            }
            if (data.length() + value.length() > MAX_EVENT_BYTES) {
                throw new EventTooLarge();
            }
            data.append(value);
            hasData = true;
        } else if (name.equals("event")) {
            eventName = value;
        }
    }

    private void dispatch() {
        if (hasData && data.length() > 0) {
            decoded.add(new ServerSentEvent(eventName == null || eventName.isEmpty() ? null : eventName,
                    data.toString()));
            decodedChars += data.length();
        }
        eventName = null;
        data.setLength(0);
        hasData = false;
    }
}
