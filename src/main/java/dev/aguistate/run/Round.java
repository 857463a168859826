package dev.aguistate.run;

import dev.aguistate.protocol.AgUiEvent;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/** The assistant message being streamed in the current LLM call. */
final class Round {
    final String messageId;
    final StringBuilder text = new StringBuilder();
    final Map<Integer, ToolCallState> toolCalls = new TreeMap<>();
    boolean textOpen;
    String reasoningId;

    Round(String messageId) {
        this.messageId = messageId;
    }

    void reason(String delta, List<AgUiEvent> out) {
        if (reasoningId == null) {
            reasoningId = UUID.randomUUID().toString();
            out.add(new AgUiEvent.ReasoningStart(reasoningId));
            out.add(new AgUiEvent.ReasoningMessageStart(reasoningId));
        }
        out.add(new AgUiEvent.ReasoningMessageContent(reasoningId, delta));
    }

    void closeReasoning(List<AgUiEvent> out) {
        if (reasoningId != null) {
            out.add(new AgUiEvent.ReasoningMessageEnd(reasoningId));
            out.add(new AgUiEvent.ReasoningEnd(reasoningId));
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
