package dev.aguistate.agent;

import dev.aguistate.protocol.Message;
import java.util.ArrayList;
import java.util.List;

/**
 * Which messages of a long conversation reach the LLM: the most recent {@code maxMessages}, plus the first user
 * message (it usually states the task). The stored history itself is kept whole.
 */
final class ContextWindow {

    private ContextWindow() {}

    /** @param maxMessages 0 for no limit */
    static List<Message> select(List<Message> history, int maxMessages) {
        if (maxMessages <= 0 || history.size() <= maxMessages) {
            return history;
        }
        int from = history.size() - (maxMessages - 1);
        // A tool result without the assistant call before it is rejected by OpenAI-compatible APIs.
        while (from < history.size() && history.get(from) instanceof Message.Tool) {
            from++;
        }
        List<Message> window = new ArrayList<>(maxMessages);
        history.subList(0, from).stream().filter(m -> m instanceof Message.User).findFirst().ifPresent(window::add);
        window.addAll(history.subList(from, history.size()));
        return window;
    }
}
