package dev.aguistate.sse;

import dev.langchain4j.http.client.sse.ServerSentEvent;
import io.vertx.core.buffer.Buffer;
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
 * <p>Not thread-safe: one decoder per response, fed on one thread. Besides the LLM's streams it reads MCP servers'
 * event streams ({@code dev.aguistate.tools.mcp}).
 */
public final class SseDecoder {

    /** An event or line larger than this is not a chat-completion chunk: the body is not what we asked for. */
    static final int MAX_EVENT_BYTES = 8 * 1024 * 1024;

    private static final byte LF = '\n';
    private static final byte CR = '\r';
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final byte[] DATA = "data".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT = "event".getBytes(StandardCharsets.US_ASCII);

    /** Stands in the queue for an event whose data is held as ASCII bytes ({@link #pollAscii}). */
    private static final ServerSentEvent HELD = new ServerSentEvent(null, "held");

    private final ArrayDeque<ServerSentEvent> decoded = new ArrayDeque<>();
    private int decodedChars;
    /** The data of the queued {@link #HELD} events, one after another, and where each starts and ends. */
    private byte[] held = new byte[0];
    /** Where the queued events' data ends: 0 whenever none is queued ({@link #releaseHeld}). */
    private int heldEnd;
    private int[] heldBounds = new int[16];
    private int heldFirst;
    private int heldCount;
    /** The current event's only data line so far, held as ASCII bytes at {@code heldEnd}; -1 if none is. */
    private int pendingLength = -1;
    private byte[] line = new byte[256];
    private int lineLength;
    private boolean afterCr;
    private boolean firstLine = true;
    private String eventName;
    /** The event's first data line; null before one. */
    private String data;
    /** The event's data once it has a second line; empty before. */
    private final StringBuilder joined = new StringBuilder();

    /** Thrown when an event grows beyond {@link #MAX_EVENT_BYTES}. */
    public static final class EventTooLarge extends RuntimeException {
        EventTooLarge() {
            super("server-sent event larger than " + MAX_EVENT_BYTES + " bytes");
        }
    }

    /** Decodes these bytes; the events they complete become available through {@link #poll()}. */
    public void feed(Buffer bytes) {
        int length = bytes.length();
        for (int i = 0; i < length; i++) {
            byte b = bytes.getByte(i);
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
    public void endOfStream() {
        lineLength = 0;
        dispatch();
    }

    /** The next decoded event, or null if none is complete yet. */
    public ServerSentEvent poll() {
        ServerSentEvent event = decoded.poll();
        if (event == HELD) {
            int start = heldBounds[heldFirst * 2];
            int length = heldBounds[heldFirst * 2 + 1];
            event = new ServerSentEvent(null, new String(held, start, length, StandardCharsets.US_ASCII));
            releaseHeld();
        }
        if (event != null) {
            decodedChars -= event.data().length();
        }
        return event;
    }

    /** Reads an event's data in place: valid only during the call, and only ASCII (each byte a character). */
    public interface AsciiData {
        void accept(byte[] bytes, int start, int length);
    }

    /**
     * If the next decoded event has no name and one line of data, all ASCII (so its bytes are its characters, the
     * {@link #poll()} text exactly), hands its data to {@code reader} without making a string of it, removes it and
     * answers true; otherwise answers false and leaves the event to {@link #poll()}.
     */
    public boolean pollAscii(AsciiData reader) {
        if (decoded.peek() != HELD) {
            return false;
        }
        decoded.poll();
        int start = heldBounds[heldFirst * 2];
        int length = heldBounds[heldFirst * 2 + 1];
        decodedChars -= length;
        reader.accept(held, start, length);
        releaseHeld();
        return true;
    }

    private void releaseHeld() {
        heldFirst++;
        if (--heldCount == 0) { // nothing queued any more: the data held next goes at the start again
            heldFirst = 0;
            if (pendingLength > 0) {
                System.arraycopy(held, heldEnd, held, 0, pendingLength);
            }
            heldEnd = 0;
        }
    }

    /** How much decoded data waits to be polled, in characters. */
    public int backlog() {
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
        int end = lineLength;
        lineLength = 0;
        if (start == end) {
            dispatch();
        } else if (line[start] != ':') {
            field(start, end);
        }
    }

    private boolean startsWithBom() {
        return lineLength >= BOM.length && line[0] == BOM[0] && line[1] == BOM[1] && line[2] == BOM[2];
    }

    /**
     * One field line, read from its bytes: the name is compared byte by byte (field names are ASCII, and neither a
     * name's bytes nor the colon occur inside a multi-byte UTF-8 character), so only a value that is used is
     * decoded, once.
     */
    private void field(int start, int end) {
        int colon = start;
        while (colon < end && line[colon] != ':') {
            colon++;
        }
        int valueStart = colon == end ? end : colon + 1 < end && line[colon + 1] == ' ' ? colon + 2 : colon + 1;
        if (named(DATA, start, colon)) {
            if (pendingLength >= 0) {
                addData(unhold()); // a second data line: the event is read as text
            }
            if (data == null && ascii(valueStart, end)) {
                hold(valueStart, end);
            } else {
                addData(new String(line, valueStart, end - valueStart, StandardCharsets.UTF_8));
            }
        } else if (named(EVENT, start, colon)) {
            eventName = new String(line, valueStart, end - valueStart, StandardCharsets.UTF_8);
        }
    }

    private boolean named(byte[] name, int start, int end) {
        return Arrays.equals(line, start, end, name, 0, name.length);
    }

    /** An event's data lines joined with LF; the usual one line is kept as it is, not copied again. */
    private void addData(String value) {
        if (data == null) {
            if (value.length() > MAX_EVENT_BYTES) {
                throw new EventTooLarge();
            }
            data = value;
            return;
        }
        if (joined.isEmpty()) {
            joined.append(data);
        }
        if (joined.length() + 1 + value.length() > MAX_EVENT_BYTES) {
            throw new EventTooLarge();
        }
        joined.append('\n').append(value);
    }

    private boolean ascii(int start, int end) {
        for (int i = start; i < end; i++) {
            if (line[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** Keeps the event's first data line as bytes, after the data of the events still queued. */
    private void hold(int start, int end) {
        int length = end - start;
        if (heldEnd + length > held.length) {
            held = Arrays.copyOf(held, Math.max(heldEnd + length, held.length * 2));
        }
        System.arraycopy(line, start, held, heldEnd, length);
        pendingLength = length;
    }

    /** The held line as text, no longer held. */
    private String unhold() {
        String text = new String(held, heldEnd, pendingLength, StandardCharsets.US_ASCII);
        pendingLength = -1;
        return text;
    }

    private void dispatch() {
        if (pendingLength >= 0) {
            if (eventName != null && !eventName.isEmpty()) {
                addData(unhold()); // a named event is rare (an error): read as text
            } else {
                queueHeld();
                eventName = null;
                return;
            }
        }
        String text = joined.isEmpty() ? data : joined.toString();
        if (text != null && !text.isEmpty()) {
            decoded.add(new ServerSentEvent(eventName == null || eventName.isEmpty() ? null : eventName, text));
            decodedChars += text.length();
        }
        eventName = null;
        data = null;
        joined.setLength(0);
    }

    private void queueHeld() {
        int length = pendingLength;
        pendingLength = -1;
        if (length == 0) {
            return; // an event with empty data is not an event
        }
        if ((heldFirst + heldCount + 1) * 2 > heldBounds.length) {
            if (heldFirst > 0) { // move the queued bounds to the front before growing
                System.arraycopy(heldBounds, heldFirst * 2, heldBounds, 0, heldCount * 2);
                heldFirst = 0;
            }
            if ((heldCount + 1) * 2 > heldBounds.length) {
                heldBounds = Arrays.copyOf(heldBounds, heldBounds.length * 2);
            }
        }
        int slot = (heldFirst + heldCount) * 2;
        heldBounds[slot] = heldEnd;
        heldBounds[slot + 1] = length;
        heldCount++;
        heldEnd += length;
        decoded.add(HELD);
        decodedChars += length;
    }
}
