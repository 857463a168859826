package dev.aguistate.run;

import dev.aguistate.protocol.Message;
import java.util.List;

/**
 * The conversation a run continues, as the request's messages were reconciled with the stored transcript.
 *
 * @param history the messages the run starts from: the stored transcript (possibly rewound) with the request's new
 *                messages in place
 * @param added   the request's new messages (also in {@code history})
 * @param restate the client's list differs from {@code history}: the run starts with a {@code MESSAGES_SNAPSHOT}
 * @param answer  there is something for the model to answer (a new user or tool message, a regenerate, a rewind
 *                that ends on one); without it, and without interrupt answers, the run calls no LLM
 */
public record Conversation(List<Message> history, List<Message> added, boolean restate, boolean answer) {

    public Conversation {
        history = List.copyOf(history);
        added = List.copyOf(added);
    }
}
