package dev.aguistate.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import java.util.List;

/**
 * What a run starts from when the server remembers the thread: the state it stored (the client's state is laid
 * over it), and the history to use when the client sent none (a reloaded page), which the client then gets as a
 * {@code MESSAGES_SNAPSHOT}.
 *
 * @param storedState   the stored thread state, or null for a new thread
 * @param storedHistory the stored messages, or an empty list
 */
public record RunStart(RunAgentInput input, JsonNode storedState, List<Message> storedHistory, RunJournal journal) {

    public RunStart {
        storedHistory = List.copyOf(storedHistory);
    }

    /** A run of a thread the server does not remember. */
    public static RunStart stateless(RunAgentInput input) {
        return new RunStart(input, null, List.of(), RunJournal.NONE);
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
