package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.PatchOperation;
import dev.aguistate.state.StatePatches;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The activity messages one round's tools show ({@link dev.aguistate.tools.ToolContext#activity}): one per call and
 * activity type, and what the client holds of each. A new one goes out at once as an {@code ACTIVITY_SNAPSHOT}; a
 * change of one goes as an {@code ACTIVITY_DELTA} against what the client holds, at most one per {@code interval}
 * and message: a change within it waits, and later changes replace it, until {@link #due} (or {@link #rest}) sends
 * the latest. Not thread-safe: {@link ToolEffects} calls it under its lock; the times are the caller's
 * {@link System#nanoTime()}.
 */
final class ToolActivities {

    /** One activity message: its last content, what the client holds, when it was last sent. */
    private static final class Shown {
        final String messageId = UUID.randomUUID().toString();
        final String type;
        JsonNode latest;
        JsonNode held;
        long sentAt;

        Shown(String type, JsonNode content) {
            this.type = type;
            this.latest = content;
        }

        boolean waiting() {
            return !latest.equals(held);
        }

        /** What takes the client from what it holds to the latest content: empty when it holds it. */
        void send(long now, List<AgUiEvent> out) {
            List<PatchOperation> patch = StatePatches.diff(held, latest);
            if (!patch.isEmpty()) {
                out.add(new AgUiEvent.ActivityDelta(messageId, type, patch));
            }
            held = latest;
            sentAt = now;
        }
    }

    private final long intervalNanos;
    private final Map<String, Shown> shown = new LinkedHashMap<>();

    /** @param interval the least time between two deltas of a message; zero sends every change */
    ToolActivities(Duration interval) {
        this.intervalNanos = interval.toNanos();
    }

    /**
     * A call's activity of a type now has {@code content}; what to send now goes to {@code out}.
     *
     * @return when (in nanoTime) a change that waits is due, or {@code Long.MIN_VALUE} when nothing waits
     */
    long show(String toolCallId, String type, JsonNode content, long now, List<AgUiEvent> out) {
        if (content == null || !content.isObject()) {
            throw new IllegalArgumentException("the content of activity " + type + " must be a JSON object");
        }
        Shown activity = shown.get(toolCallId + '\n' + type);
        if (activity == null) {
            activity = new Shown(type, content.deepCopy());
            shown.put(toolCallId + '\n' + type, activity);
            activity.held = activity.latest;
            activity.sentAt = now;
            out.add(new AgUiEvent.ActivitySnapshot(activity.messageId, type, activity.latest, null));
            return Long.MIN_VALUE;
        }
        activity.latest = content.deepCopy();
        if (now - activity.sentAt >= intervalNanos) {
            activity.send(now, out);
            return Long.MIN_VALUE;
        }
        return activity.sentAt + intervalNanos;
    }

    /**
     * Sends the changes whose time has come.
     *
     * @return when the next waiting change is due, or {@code Long.MIN_VALUE} when nothing waits
     */
    long due(long now, List<AgUiEvent> out) {
        long next = Long.MIN_VALUE;
        for (Shown activity : shown.values()) {
            if (!activity.waiting()) {
                continue;
            }
            if (now - activity.sentAt >= intervalNanos) {
                activity.send(now, out);
            } else if (next == Long.MIN_VALUE || activity.sentAt + intervalNanos - next < 0) {
                next = activity.sentAt + intervalNanos;
            }
        }
        return next;
    }

    /** Sends every change that waits: the round's tools are done, their results follow. */
    void rest(long now, List<AgUiEvent> out) {
        shown.values().stream().filter(Shown::waiting).forEach(activity -> activity.send(now, out));
    }

    /** The activity messages as the client holds them after {@link #rest}, in the order they were first shown. */
    List<Message> messages() {
        List<Message> messages = new ArrayList<>(shown.size());
        shown.values().forEach(a -> messages.add(new Message.Activity(a.messageId, a.type, a.latest, null)));
        return messages;
    }
}
