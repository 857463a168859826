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
    private static final byte[] SUFFIX = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

    private SseFrames() {}

    public static byte[] frame(AgUiEvent event) {
        byte[] json = AgUiJson.writeBytes(event);
        byte[] frame = new byte[PREFIX.length + json.length + SUFFIX.length];
        System.arraycopy(PREFIX, 0, frame, 0, PREFIX.length);
        System.arraycopy(json, 0, frame, PREFIX.length, json.length);
        System.arraycopy(SUFFIX, 0, frame, PREFIX.length + json.length, SUFFIX.length);
        return frame;
    }

    /** A comment frame: ignored by SSE clients, keeps proxies from closing a silent stream. */
    public static byte[] keepAlive() {
        return KEEP_ALIVE.clone();
    }
}
