package dev.aguistate.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One entry of a run's event log: its place in the run ({@code seq}: 1, 2, … without gaps; 0 is the run's base,
 * never streamed) and its JSON, exactly as the SSE frame's {@code data:} carries it.
 *
 * <p>An entry of a run on this replica is kept as the frame that carried it to the run's client ({@link #inFrame}):
 * the event was serialized once, and the log's store takes its bytes from that array (nothing changes a frame once
 * made); the in-memory store's log keeps a copy of them and reads them back as a frame. An entry read back from
 * Redis or PostgreSQL holds its JSON text. Two entries are equal when their {@code seq} and JSON are.
 */
public final class LoggedEvent {

    private final long seq;
    private final String json;
    private final byte[] frame;
    private final int jsonFrom;
    private final int jsonTo;

    public LoggedEvent(long seq, String json) {
        this(seq, Objects.requireNonNull(json), null, 0, 0);
    }

    private LoggedEvent(long seq, String json, byte[] frame, int jsonFrom, int jsonTo) {
        this.seq = seq;
        this.json = json;
        this.frame = frame;
        this.jsonFrom = jsonFrom;
        this.jsonTo = jsonTo;
    }

    /** Event {@code seq}, whose UTF-8 JSON is {@code frame}'s bytes from {@code jsonFrom} to {@code jsonTo}. */
    public static LoggedEvent inFrame(long seq, byte[] frame, int jsonFrom, int jsonTo) {
        return new LoggedEvent(seq, null, frame, jsonFrom, jsonTo);
    }

    public long seq() {
        return seq;
    }

    /** The event's JSON; decoded from the frame each time for an entry kept as one (readers of it are rare). */
    public String json() {
        return json != null ? json : new String(frame, jsonFrom, jsonTo - jsonFrom, StandardCharsets.UTF_8);
    }

    /**
     * The frame that carried the entry to its run's client, never to be changed; null when the entry holds text. Not
     * an Optional: it is asked for every entry appended and served, and the Optional was a tenth of what a logged
     * event allocated.
     */
    public byte[] frame() {
        return frame;
    }

    /** Where the JSON starts in {@link #frame()}; for an entry kept as its frame. */
    public int jsonFrom() {
        return jsonFrom;
    }

    /** Where the JSON ends in {@link #frame()}; for an entry kept as its frame. */
    public int jsonTo() {
        return jsonTo;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LoggedEvent entry && entry.seq == seq && (frame != null && entry.frame != null
                ? Arrays.equals(frame, jsonFrom, jsonTo, entry.frame, entry.jsonFrom, entry.jsonTo)
                : entry.json().equals(json()));
    }

    @Override
    public int hashCode() {
        return Long.hashCode(seq) * 31 + json().hashCode();
    }

    @Override
    public String toString() {
        return "LoggedEvent[seq=" + seq + ", json=" + json() + "]";
    }
}
