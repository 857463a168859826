package dev.aguistate.protocol;

import java.nio.charset.StandardCharsets;

/**
 * Server-Sent Events framing as the official encoder writes it: {@code data: <compact JSON>\n\n}, LF only,
 * one frame per event. Compact JSON never contains a raw newline (Jackson escapes them inside strings), so
 * one {@code data:} line always suffices.
 */
public final class SseFrames {

    public static final String CONTENT_TYPE = "text/event-stream";

    private static final byte[] PREFIX = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final String ID_PREFIX = "id: ";
    private static final byte[] SUFFIX = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

    private SseFrames() {}

    public static byte[] frame(AgUiEvent event) {
        return frame(null, AgUiJson.writeBytes(event));
    }

    /**
     * A frame of an event's JSON, with an {@code id:} line first when {@code id} is not null (the cursor a client
     * resumes from; AG-UI clients that do not resume ignore it). Ids are made by the server and never hold a line
     * break.
     */
    public static byte[] frame(String id, byte[] json) {
        byte[] idLine = id == null ? new byte[0] : (ID_PREFIX + id + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[idLine.length + PREFIX.length + json.length + SUFFIX.length];
        System.arraycopy(idLine, 0, frame, 0, idLine.length);
        System.arraycopy(PREFIX, 0, frame, idLine.length, PREFIX.length);
        System.arraycopy(json, 0, frame, idLine.length + PREFIX.length, json.length);
        System.arraycopy(SUFFIX, 0, frame, idLine.length + PREFIX.length + json.length, SUFFIX.length);
        return frame;
    }

    /** A comment frame: ignored by SSE clients, keeps proxies from closing a silent stream. */
    public static byte[] keepAlive() {
        return KEEP_ALIVE.clone();
    }
}
