package dev.aguistate.run;

import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.MessageContent;
import dev.aguistate.protocol.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The run's AG-UI conversation: the history it started from plus every message it adds, in the client's order. */
final class Transcript {

    private final List<Message> messages;

    Transcript(List<Message> history) {
        this.messages = new ArrayList<>(history);
    }

    /** A copy of the conversation as it is now. */
    List<Message> messages() {
        return List.copyOf(messages);
    }

    void add(Message message) {
        messages.add(message);
    }

    /**
     * Records a finished round's assistant turn: its text and the tool calls it made, and its reasoning. A round
     * that said nothing and called nothing adds no assistant message: the client never saw one (it creates it on
     * the first text or call), and the LLM would read an empty turn in the next request.
     */
    void addAssistantTurn(Round round) {
        String text = round.text.isEmpty() ? null : round.text.toString();
        List<ToolCall> calls = round.toolCalls.values().stream()
                .map(c -> new ToolCall(c.id, c.name, c.argumentsOrEmptyObject())).toList();
        messages.addAll(round.reasoningBefore);
        if (text != null || !calls.isEmpty()) {
            messages.add(new Message.Assistant(round.messageId, text, calls.isEmpty() ? null : calls));
        }
        messages.addAll(round.reasoningAfter);
    }

    /**
     * Records a call's result and returns its {@code TOOL_CALL_RESULT}. The tool message goes right after the
     * assistant message that made the call and any results already there, where {@code @ag-ui/client} puts it.
     */
    AgUiEvent.ToolCallResult addResult(String toolCallId, MessageContent content) {
        String messageId = UUID.randomUUID().toString();
        messages.add(resultPosition(toolCallId), new Message.Tool(messageId, content, toolCallId, null, null, null));
        return new AgUiEvent.ToolCallResult(messageId, toolCallId, content, "tool");
    }

    private int resultPosition(String toolCallId) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof Message.Assistant a && a.toolCalls() != null
                    && a.toolCalls().stream().anyMatch(c -> c.id().equals(toolCallId))) {
                int at = i + 1;
                while (at < messages.size() && messages.get(at) instanceof Message.Tool) {
                    at++;
                }
                return at;
            }
        }
        return messages.size();
    }
}
