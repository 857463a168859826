package dev.aguistate.session;

import dev.aguistate.protocol.SseFrames;

/** The SSE frames of a run's events: each with the cursor ({@link Cursor}) a client resumes from. */
final class RunFrames {

    private RunFrames() {}

    /** The frame of event {@code seq} of the run {@code runId} whose claim's token is {@code token}. */
    static byte[] frame(String runId, String token, long seq, byte[] json) {
        return SseFrames.frame(Cursor.id(runId, token, seq), json);
    }
}
