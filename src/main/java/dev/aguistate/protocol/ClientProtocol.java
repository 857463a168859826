package dev.aguistate.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * The AG-UI version a client speaks, and what that changes in the frames it is sent. The server makes, logs and
 * stores 1.0 events; a client that predates 1.0 gets the few that its schemas refuse reshaped on the way out.
 *
 * <p>1.0 clients state {@code protocolVersion} in their run input; older ones (such as {@code @ag-ui/client}
 * 0.0.59, which CopilotKit 1.75 ships) do not, and their schemas refuse three things that fail the whole run
 * there: a success outcome with {@code pendingToolCallIds}, the {@code cancelled} outcome, and a tool result
 * whose content is a list of parts. So, for them, a success outcome loses {@code pendingToolCallIds}, a
 * cancelled run ends in {@code RUN_ERROR} with code {@code cancelled} (the only terminal event they have for a run
 * that did not finish), and a {@code MESSAGES_SNAPSHOT}'s tool message or a {@code TOOL_CALL_RESULT} (an MCP
 * server's image) gets the text of its text parts ({@link MessageContent#text()}). Activity events and messages go
 * out as made: clients since 0.0.40 read them. The {@code SUBAGENT_*} events, which they do not know (an unknown
 * type fails their run), are left out: a sub-agent's text and tool calls still reach them, unattributed (their
 * schemas drop the {@code subagentRunId} field they do not know).
 */
public enum ClientProtocol {
    /** AG-UI 1.0 or later: frames go out as made. */
    V1_0,
    /** Before 1.0: no {@code protocolVersion} in the input, or a 0.x one. */
    PRE_1_0;

    private static final Pattern VERSION = Pattern.compile("\\d{1,9}(\\.\\d{1,9}){0,3}([-+][0-9A-Za-z.-]{1,64})?");
    private static final byte[] NOTHING = new byte[0];
    /** What a frame that changes holds, as {@link AgUiJson} writes it (compact). */
    private static final byte[] PENDING_CALLS = ascii("\"pendingToolCallIds\":");
    private static final byte[] CANCELLED = ascii("\"cancelled\"");
    private static final byte[] CONTENT_PARTS = ascii("\"content\":[");
    private static final byte[] TOOL_MESSAGE = ascii("\"role\":\"tool\"");

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Whether {@code declared} reads as a version: digits and dots, an optional pre-release or build suffix. */
    public static boolean isVersion(String declared) {
        return VERSION.matcher(declared).matches();
    }

    /** The protocol of a client that declared {@code declared} (null when it declared none). */
    public static ClientProtocol of(String declared) {
        return declared == null || declared.startsWith("0.") || declared.equals("0") ? PRE_1_0 : V1_0;
    }

    /** The frame as this client is to get it; the same array when nothing changes, an empty one to leave it out. */
    public byte[] adapt(byte[] frame) {
        if (this == V1_0) {
            return frame;
        }
        int data = SseFrames.jsonStart(frame);
        if (data >= 0 && (EventType.SUBAGENT_STARTED.begins(frame, data)
                || EventType.SUBAGENT_FINISHED.begins(frame, data) || EventType.SUBAGENT_ERROR.begins(frame, data))) {
            return NOTHING;
        }
        boolean finished = data >= 0 && EventType.RUN_FINISHED.begins(frame, data);
        boolean result = data >= 0 && EventType.TOOL_CALL_RESULT.begins(frame, data);
        boolean snapshot = data >= 0 && EventType.MESSAGES_SNAPSHOT.begins(frame, data);
        // Only a frame holding what changes is read (text the same as it, inside a string, is read for nothing):
        // most runs' RUN_FINISHED and MESSAGES_SNAPSHOT go out as made, without a parse and a write each.
        if (!(finished && (holds(frame, data, PENDING_CALLS) || holds(frame, data, CANCELLED)))
                && !(result && holds(frame, data, CONTENT_PARTS))
                && !(snapshot && holds(frame, data, TOOL_MESSAGE) && holds(frame, data, CONTENT_PARTS))) {
            return frame;
        }
        ObjectNode event = read(frame, data, SseFrames.jsonEnd(frame));
        ObjectNode adapted;
        if (finished) {
            adapted = preOneZeroEnd(event);
        } else if (result && event.path("content").isArray()) {
            adapted = asText(event);
        } else if (snapshot && preOneZeroMessages(event)) {
            adapted = event;
        } else {
            return frame;
        }
        return SseFrames.frame(SseFrames.id(frame), adapted);
    }

    /** A 1.0 {@code RUN_FINISHED} as a client before 1.0 accepts it. */
    private static ObjectNode preOneZeroEnd(ObjectNode finished) {
        JsonNode outcome = finished.path("outcome");
        String type = outcome.path("type").asText();
        if (type.equals("cancelled")) {
            ObjectNode error = AgUiJson.mapper().createObjectNode()
                    .put("type", EventType.RUN_ERROR.name())
                    .put("message", "The run was stopped.")
                    .put("code", "cancelled");
            for (String kept : new String[] {"usage", "metadata", "timestamp"}) {
                if (finished.has(kept)) {
                    error.set(kept, finished.get(kept));
                }
            }
            return error;
        }
        if (type.equals("success") && outcome instanceof ObjectNode success) {
            success.remove("pendingToolCallIds");
        }
        return finished;
    }

    /**
     * Makes a {@code MESSAGES_SNAPSHOT}'s tool messages hold text, as before 1.0, rather than content parts; whether
     * any had parts (else the snapshot is as it was).
     */
    private static boolean preOneZeroMessages(ObjectNode snapshot) {
        boolean changed = false;
        for (JsonNode message : snapshot.path("messages")) {
            if (message.path("role").asText().equals("tool") && message.path("content").isArray()) {
                asText((ObjectNode) message);
                changed = true;
            }
        }
        return changed;
    }

    /** A tool message or result whose content parts become the text of its text parts. */
    private static ObjectNode asText(ObjectNode holder) {
        return holder.put("content", AgUiJson.mapper().convertValue(holder.get("content"), MessageContent.class).text());
    }

    /** Whether {@code text} (ASCII) occurs in {@code frame} from {@code from} on. */
    private static boolean holds(byte[] frame, int from, byte[] text) {
        int last = frame.length - text.length;
        for (int at = from; at <= last; at++) {
            if (frame[at] == text[0] && Arrays.equals(frame, at, at + text.length, text, 0, text.length)) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode read(byte[] frame, int from, int to) {
        try {
            return (ObjectNode) AgUiJson.mapper().readTree(frame, from, to - from);
        } catch (IOException e) {
            throw new UncheckedIOException("a frame the server made is not JSON", e);
        }
    }
}
