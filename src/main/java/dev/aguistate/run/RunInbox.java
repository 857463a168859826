package dev.aguistate.run;

import dev.aguistate.protocol.Message;
import java.util.ArrayList;
import java.util.List;

/**
 * The user messages steered into a live run ({@code multitask: steer}), which the run takes at its next round
 * boundary: after a round's tool results are recorded, before its next LLM call, so that a message never comes
 * between a tool call and its result. A message the run never takes (it ended first) stays here unseen: its sender
 * tells from the run's log that it was not taken and starts a run of its own with it.
 */
public final class RunInbox {

    /** Guarded by this. */
    private final List<Message.User> waiting = new ArrayList<>();

    /** Leaves the message for the run's next round boundary. */
    public synchronized void offer(Message.User message) {
        waiting.add(message);
    }

    /** How many messages wait for the run's next round boundary. */
    public synchronized int size() {
        return waiting.size();
    }

    /** What was offered since the last time, oldest first; the inbox is then empty. */
    synchronized List<Message.User> take() {
        List<Message.User> taken = List.copyOf(waiting);
        waiting.clear();
        return taken;
    }
}
