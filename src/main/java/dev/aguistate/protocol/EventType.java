package dev.aguistate.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The 36 event types of the AG-UI protocol, named exactly as on the wire. */
public enum EventType {
    RUN_STARTED, RUN_FINISHED, RUN_ERROR, STEP_STARTED, STEP_FINISHED,
    TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT, TEXT_MESSAGE_END, TEXT_MESSAGE_CHUNK,
    TOOL_CALL_START, TOOL_CALL_ARGS, TOOL_CALL_END, TOOL_CALL_RESULT, TOOL_CALL_CHUNK,
    STATE_SNAPSHOT, STATE_DELTA, MESSAGES_SNAPSHOT,
    ACTIVITY_SNAPSHOT, ACTIVITY_DELTA,
    RAW, CUSTOM,
    REASONING_START, REASONING_MESSAGE_START, REASONING_MESSAGE_CONTENT, REASONING_MESSAGE_END,
    REASONING_MESSAGE_CHUNK, REASONING_END, REASONING_ENCRYPTED_VALUE,
    SUBAGENT_STARTED, SUBAGENT_FINISHED, SUBAGENT_ERROR,
    THINKING_START, THINKING_END, THINKING_TEXT_MESSAGE_START, THINKING_TEXT_MESSAGE_CONTENT,
    THINKING_TEXT_MESSAGE_END;

    /**
     * How the JSON of an event of this type begins as {@link AgUiJson} writes it: the type is its first field. The
     * server's own events (in a run's log, in frames) are told apart by it without being parsed.
     */
    private final String writtenStart = "{\"type\":\"" + name() + "\"";
    private final byte[] writtenStartBytes = writtenStart.getBytes(StandardCharsets.US_ASCII);

    /** Whether an event of this type is a run's last: {@code RUN_FINISHED} or {@code RUN_ERROR}. */
    public boolean endsRun() {
        return this == RUN_FINISHED || this == RUN_ERROR;
    }

    /** Whether {@code json}, an event this server wrote, is of this type. */
    public boolean begins(String json) {
        return json.startsWith(writtenStart);
    }

    /** Whether the event this server wrote at {@code from} in {@code bytes} (in a frame, say) is of this type. */
    public boolean begins(byte[] bytes, int from) {
        return bytes.length - from >= writtenStartBytes.length && Arrays.equals(bytes, from,
                from + writtenStartBytes.length, writtenStartBytes, 0, writtenStartBytes.length);
    }
}
