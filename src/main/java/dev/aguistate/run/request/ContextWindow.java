package dev.aguistate.run.request;

import dev.aguistate.protocol.Message;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which messages of a long conversation reach the LLM: at most {@code maxMessages} of the most recent ones, none
 * older than {@code maxAge}, and always the first user message (it usually states the task). The stored history
 * itself is kept whole.
 *
 * @param maxMessages 0 for no limit
 * @param maxAge      null for no limit
 */
public record ContextWindow(int maxMessages, Duration maxAge) {

    /**
     * @param times when each message (by id) first reached the server; a message it lacks is new (it is arriving
     *              now)
     */
    List<Message> select(List<Message> history, Map<String, Instant> times, Instant now) {
        int from = 0;
        if (maxAge != null) {
            Instant cutoff = now.minus(maxAge);
            while (from < history.size() && times.getOrDefault(history.get(from).id(), now).isBefore(cutoff)) {
                from++;
            }
        }
        // once anything is cut, one place is kept for the first user message
        int kept = history.size() - from + (from > 0 ? 1 : 0);
        if (maxMessages > 0 && kept > maxMessages) {
            from = history.size() - (maxMessages - 1);
        }
        if (from == 0) {
            return history;
        }
        // A tool result without the assistant call before it is rejected by OpenAI-compatible APIs.
        while (from < history.size() && history.get(from) instanceof Message.Tool) {
            from++;
        }
        List<Message> window = new ArrayList<>(history.size() - from + 1);
        history.subList(0, from).stream().filter(m -> m instanceof Message.User).findFirst().ifPresent(window::add);
        window.addAll(history.subList(from, history.size()));
        return window;
    }
}
