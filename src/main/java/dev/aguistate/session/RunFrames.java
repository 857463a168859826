package dev.aguistate.session;

import dev.aguistate.protocol.SseFrames;

/** The SSE frames of a run's events: each with the cursor {@code id: <runId>:<seq>} a client resumes from. */
final class RunFrames {

    private RunFrames() {}

    static byte[] frame(String runId, long seq, byte[] json) {
        return SseFrames.frame(Cursor.id(runId, seq), json);
    }
}
