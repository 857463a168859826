package dev.aguistate.run;

import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The assistant message being streamed in the current LLM call, and its reasoning. Reasoning is kept as the
 * reasoning messages the client builds from the {@code REASONING_*} events, before or after the assistant message
 * as the client placed them (it creates each message when its first event arrives).
 */
final class Round {
    final String messageId;
    final StringBuilder text = new StringBuilder();
    final Map<Integer, ToolCallState> toolCalls = new TreeMap<>();
    /** Reasoning that started before the assistant message did, and after. */
    final List<Message.Reasoning> reasoningBefore = new ArrayList<>();
    final List<Message.Reasoning> reasoningAfter = new ArrayList<>();
    boolean textOpen;
    private String reasoningId;
    private final StringBuilder reasoning = new StringBuilder();

    Round(String messageId) {
        this.messageId = messageId;
    }

    /** What the model answered in this round, as one assistant message. */
    Message.Assistant answer() {
        return new Message.Assistant(messageId, text.toString(), toolCalls.values().stream()
                .map(call -> new ToolCall(call.id, call.name, call.arguments.toString())).toList());
    }

    /** The client created the assistant message: it has text or a tool call. */
    private boolean assistantStarted() {
        return textOpen || !text.isEmpty() || !toolCalls.isEmpty();
    }

    void reason(String delta, List<AgUiEvent> out) {
        if (reasoningId == null) {
            reasoningId = UUID.randomUUID().toString();
            out.add(new AgUiEvent.ReasoningStart(reasoningId));
            out.add(new AgUiEvent.ReasoningMessageStart(reasoningId));
        }
        reasoning.append(delta);
        out.add(new AgUiEvent.ReasoningMessageContent(reasoningId, delta));
    }

    void closeReasoning(List<AgUiEvent> out) {
        if (reasoningId != null) {
            out.add(new AgUiEvent.ReasoningMessageEnd(reasoningId));
            out.add(new AgUiEvent.ReasoningEnd(reasoningId));
            (assistantStarted() ? reasoningAfter : reasoningBefore)
                    .add(new Message.Reasoning(reasoningId, reasoning.toString(), null, null));
            reasoning.setLength(0);
            reasoningId = null;
        }
    }

    void text(String delta, List<AgUiEvent> out) {
        if (!textOpen) {
            textOpen = true;
            out.add(AgUiEvent.TextMessageStart.assistant(messageId));
        }
        text.append(delta);
        out.add(new AgUiEvent.TextMessageContent(messageId, delta));
    }

    ToolCallState startToolCall(int index, String id, String name, List<AgUiEvent> out) {
        ToolCallState call = new ToolCallState(id == null || id.isBlank() ? "call_" + UUID.randomUUID() : id, name);
        toolCalls.put(index, call);
        out.add(new AgUiEvent.ToolCallStart(call.id, name, messageId));
        return call;
    }

    void close(List<AgUiEvent> out) {
        closeReasoning(out);
        if (textOpen) {
            textOpen = false;
            out.add(new AgUiEvent.TextMessageEnd(messageId));
        }
        toolCalls.values().forEach(call -> call.end(out));
    }
}
