package dev.aguistate.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ToolCall;
import dev.aguistate.state.StatePatches;
import dev.aguistate.store.LoggedEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a client that joins a live run must be told to hold what an uninterrupted client holds: the run's logged
 * events projected over the thread as stored (its last checkpoint) and the state the run's client started from.
 * The result, the join prelude, is a valid beginning of a run for any AG-UI client: {@code RUN_STARTED}, a
 * {@code MESSAGES_SNAPSHOT} of the complete messages (activity messages with their content so far), each open message, tool call and reasoning re-opened with
 * what it has so far, and a {@code STATE_SNAPSHOT} of the current (predicted) state; then the live events go on
 * from {@link #lastSeq()}.
 */
final class RunProjection {

    /** An assistant turn: its text and its finished tool calls, in order; a sub-agent's carries its run's id. */
    private static final class Turn {
        final String id;
        final StringBuilder text = new StringBuilder();
        final List<ToolCall> calls = new ArrayList<>();
        String subagentRunId;
        boolean textOpen;
        boolean hasText;

        Turn(String id) {
            this.id = id;
        }

        Message message() {
            return new Message.Assistant(id, hasText ? text.toString() : null, calls.isEmpty() ? null : List.copyOf(calls),
                    null, null, null, subagentRunId);
        }
    }

    private record OpenCall(String id, String name, String parentId, StringBuilder args, String subagentRunId) {}

    /** An open reasoning message, and the sub-agent run it is of (null: the run's own). */
    private record OpenReasoning(StringBuilder text, String subagentRunId) {}

    private final Map<String, Message> messages = new LinkedHashMap<>();
    private final Map<String, Turn> turns = new LinkedHashMap<>();
    private final Map<String, OpenCall> openCalls = new LinkedHashMap<>();
    private final Map<String, OpenReasoning> openReasoning = new LinkedHashMap<>();
    /** The open reasoning phases: message id → the sub-agent run it is of (null: the run's own). */
    private final Map<String, String> reasoningPhases = new LinkedHashMap<>();
    private JsonNode state;
    private AgUiEvent.RunStarted started;
    private AgUiEvent terminal;
    private long lastSeq = -1;

    private RunProjection(List<Message> stored, JsonNode state) {
        stored.forEach(m -> messages.put(m.id(), m));
        this.state = state;
    }

    /**
     * A projection to which the run's log, from its base entry (seq 0) on, is then {@link #apply applied}.
     *
     * @param stored the thread's messages as stored now (the run's last checkpoint)
     * @param state  the state to start from when the log has lost its base entry (a trimmed log)
     */
    static RunProjection over(List<Message> stored, JsonNode state) {
        return new RunProjection(stored, state);
    }

    /** Applies the log's next entries, in order. */
    RunProjection apply(List<LoggedEvent> entries) {
        entries.forEach(this::apply);
        return this;
    }

    long lastSeq() {
        return lastSeq;
    }

    /** The run's terminal event, when the log already holds it. */
    AgUiEvent terminal() {
        return terminal;
    }

    /** The join prelude; {@code threadId} and {@code runId} name the run when its RUN_STARTED was trimmed. */
    List<AgUiEvent> prelude(String threadId, String runId, boolean withState) {
        List<AgUiEvent> out = new ArrayList<>();
        out.add(started != null ? new AgUiEvent.RunStarted(started.threadId(), started.runId(),
                AgUiEvent.PROTOCOL_VERSION, started.parentRunId(), null, started.metadata())
                : new AgUiEvent.RunStarted(threadId, runId, null, null));
        out.add(new AgUiEvent.MessagesSnapshot(List.copyOf(messages.values())));
        reasoningPhases.forEach((id, subagentRunId) -> out.add(new AgUiEvent.ReasoningStart(id, subagentRunId)));
        // what is re-opened keeps its sub-agent: the live events that follow carry it, and a 1.0 client checks they
        // match their opener's
        openReasoning.forEach((id, open) -> {
            out.add(new AgUiEvent.ReasoningMessageStart(id, "reasoning", open.subagentRunId()));
            if (!open.text().isEmpty()) {
                out.add(new AgUiEvent.ReasoningMessageContent(id, open.text().toString(), open.subagentRunId()));
            }
        });
        turns.values().stream().filter(t -> t.textOpen).forEach(t -> {
            out.add(new AgUiEvent.TextMessageStart(t.id, "assistant", null, t.subagentRunId));
            if (!t.text.isEmpty()) {
                out.add(new AgUiEvent.TextMessageContent(t.id, t.text.toString(), t.subagentRunId));
            }
        });
        openCalls.values().forEach(c -> {
            out.add(new AgUiEvent.ToolCallStart(c.id(), c.name(), c.parentId(), c.subagentRunId()));
            if (!c.args().isEmpty()) {
                out.add(new AgUiEvent.ToolCallArgs(c.id(), c.args().toString(), c.subagentRunId()));
            }
        });
        if (withState && state != null) {
            out.add(new AgUiEvent.StateSnapshot(state));
        }
        return out;
    }

    private void apply(LoggedEvent entry) {
        lastSeq = entry.seq();
        if (entry.seq() == 0) {
            state = AgUiJson.tree(entry.json()).get("state");
            return;
        }
        AgUiEvent event;
        try {
            event = AgUiJson.read(entry.json(), AgUiEvent.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the run's log holds an event that is not AG-UI JSON", e);
        }
        if (event instanceof AgUiEvent.RunStarted e) {
            started = e;
        } else if (event.endsRun()) {
            terminal = event;
        } else if (event instanceof AgUiEvent.MessagesSnapshot e) {
            messages.clear();
            e.messages().forEach(m -> messages.put(m.id(), m));
        } else if (event instanceof AgUiEvent.StateSnapshot e) {
            state = e.snapshot();
        } else if (event instanceof AgUiEvent.StateDelta e) {
            state = StatePatches.apply(state, e.delta());
        } else if (event instanceof AgUiEvent.TextMessageStart e) {
            Turn turn = turn(e.messageId());
            turn.subagentRunId = e.subagentRunId();
            turn.textOpen = true;
            turn.hasText = true;
        } else if (event instanceof AgUiEvent.TextMessageContent e) {
            turn(e.messageId()).text.append(e.delta());
        } else if (event instanceof AgUiEvent.TextMessageEnd e) {
            Turn turn = turn(e.messageId());
            turn.textOpen = false;
            messages.put(turn.id, turn.message());
        } else if (event instanceof AgUiEvent.ToolCallStart e) {
            openCalls.put(e.toolCallId(), new OpenCall(e.toolCallId(), e.toolCallName(), e.parentMessageId(),
                    new StringBuilder(), e.subagentRunId()));
        } else if (event instanceof AgUiEvent.ToolCallArgs e && openCalls.containsKey(e.toolCallId())) {
            openCalls.get(e.toolCallId()).args().append(e.delta());
        } else if (event instanceof AgUiEvent.ToolCallEnd e && openCalls.containsKey(e.toolCallId())) {
            OpenCall call = openCalls.remove(e.toolCallId());
            Turn turn = turn(call.parentId() != null ? call.parentId() : call.id());
            turn.subagentRunId = call.subagentRunId();
            turn.calls.add(new ToolCall(call.id(), call.name(), call.args().toString()));
            messages.put(turn.id, turn.message());
        } else if (event instanceof AgUiEvent.ToolCallResult e) {
            messages.put(e.messageId(), new Message.Tool(e.messageId(), e.content(), e.toolCallId(), null, null, null,
                    e.subagentRunId()));
        } else if (event instanceof AgUiEvent.ActivitySnapshot e) {
            messages.put(e.messageId(), new Message.Activity(e.messageId(), e.activityType(), e.content(), null,
                    e.subagentRunId()));
        } else if (event instanceof AgUiEvent.ActivityDelta e
                && messages.get(e.messageId()) instanceof Message.Activity activity) {
            messages.put(e.messageId(), new Message.Activity(activity.id(), activity.activityType(),
                    StatePatches.apply(activity.content(), e.patch()), activity.metadata(), activity.subagentRunId()));
        } else if (event instanceof AgUiEvent.ReasoningStart e) {
            reasoningPhases.put(e.messageId(), e.subagentRunId());
        } else if (event instanceof AgUiEvent.ReasoningEnd e) {
            reasoningPhases.remove(e.messageId());
        } else if (event instanceof AgUiEvent.ReasoningMessageStart e) {
            openReasoning.put(e.messageId(), new OpenReasoning(new StringBuilder(), e.subagentRunId()));
        } else if (event instanceof AgUiEvent.ReasoningMessageContent e && openReasoning.containsKey(e.messageId())) {
            openReasoning.get(e.messageId()).text().append(e.delta());
        } else if (event instanceof AgUiEvent.ReasoningMessageEnd e && openReasoning.containsKey(e.messageId())) {
            OpenReasoning open = openReasoning.remove(e.messageId());
            messages.put(e.messageId(), new Message.Reasoning(e.messageId(), open.text().toString(), null, null,
                    open.subagentRunId()));
        }
        // the other events change nothing a joining client must be told
    }

    /** The assistant turn with this id: the run's events rebuild it whole, checkpointed or not. */
    private Turn turn(String id) {
        return turns.computeIfAbsent(id, Turn::new);
    }
}
