package dev.aguistate.run;

import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.state.StateLayers;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a run starts from when the server remembers the thread: the state it stored (the client's state is laid
 * over it), and the history to use when the client sent none (a reloaded page), which the client then gets as a
 * {@code MESSAGES_SNAPSHOT}.
 *
 * @param storedState   the stored thread state and the user's and everyone's shared scopes (empty layers for a new
 *                      thread)
 * @param storedHistory the stored messages, or an empty list
 * @param messageTimes  when each stored message (by id) first reached the server
 * @param interrupts    what the thread waits for (human confirmation)
 */
public record RunStart(RunAgentInput input, StateLayers storedState, List<Message> storedHistory,
                       Map<String, Instant> messageTimes, ThreadInterrupts interrupts, RunJournal journal) {

    public RunStart {
        storedHistory = List.copyOf(storedHistory);
        messageTimes = Map.copyOf(messageTimes);
    }

    /** The client reloaded: it sent no messages for a thread that has some. */
    public boolean hydrates() {
        return input.messages().isEmpty() && !storedHistory.isEmpty();
    }

    /** The conversation the run continues. */
    public List<Message> history() {
        return hydrates() ? storedHistory : input.messages();
    }
}
