package dev.aguistate.session;

import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.EventType;
import dev.aguistate.protocol.SseFrames;
import dev.aguistate.store.LoggedEvent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The SSE frames of one run's events, each with the cursor ({@link Cursor}) a client resumes from, and the log
 * entries they are kept as. A frame is made once per event; an entry kept as its frame is served again as is.
 */
final class RunFrames {

    /** The types that end a run, as {@link EventType#endsRun()} names them. */
    private static final List<EventType> ENDING = Arrays.stream(EventType.values()).filter(EventType::endsRun).toList();

    /** The cursors' common start, made once per run: a frame's cursor is it and the event's number. */
    private final String cursor;

    /** The frames of the run {@code runId} whose claim's token is {@code token}. */
    RunFrames(String runId, String token) {
        this.cursor = Cursor.of(runId, token);
    }

    /** The frame of event {@code seq}. */
    byte[] frame(long seq, AgUiEvent event) {
        return SseFrames.frame(cursor + seq, event);
    }

    /** The frame of a logged event: the one it is kept as, else one made from its JSON. */
    byte[] frame(LoggedEvent entry) {
        byte[] kept = entry.frame();
        return kept != null ? kept
                : SseFrames.frame(cursor + entry.seq(), entry.json().getBytes(StandardCharsets.UTF_8));
    }

    /** The log entry of event {@code seq}, kept as its frame. */
    static LoggedEvent logged(long seq, byte[] frame) {
        return LoggedEvent.inFrame(seq, frame, SseFrames.jsonStart(frame), SseFrames.jsonEnd(frame));
    }

    /** Whether the logged event is of {@code type}: told from its frame, when kept as one, without decoding it. */
    static boolean is(LoggedEvent entry, EventType type) {
        byte[] frame = entry.frame();
        return frame != null ? type.begins(frame, SseFrames.jsonStart(frame)) : type.begins(entry.json());
    }

    /** Whether the logged event is its run's last: of a type that {@link EventType#endsRun() ends a run}. */
    static boolean endsRun(LoggedEvent entry) {
        for (EventType type : ENDING) {
            if (is(entry, type)) {
                return true;
            }
        }
        return false;
    }
}
