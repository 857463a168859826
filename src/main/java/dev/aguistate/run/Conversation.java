package dev.aguistate.run;

import dev.aguistate.protocol.Message;
import java.util.List;

/**
 * The conversation a run continues, as the request's messages were reconciled with the stored transcript.
 *
 * @param history the messages the run starts from: the stored transcript (possibly rewound) with the request's new
 *                messages in place
 * @param added   the request's new messages (also in {@code history})
 * @param restate how the client is brought to {@code history} before the run goes on
 * @param answer  there is something for the model to answer (a new user or tool message, a regenerate, a rewind
 *                that ends on one); without it, and without interrupt answers, the run calls no LLM
 */
public record Conversation(List<Message> history, List<Message> added, Restatement restate, boolean answer) {

    /**
     * How a client's messages are brought to the conversation. A {@code MESSAGES_SNAPSHOT} merges by id: the client
     * keeps the messages it has where they are and appends the others, so a client whose messages are out of the
     * conversation's order (one that sent only its new message) is first given an empty snapshot.
     */
    public enum Restatement {
        /** The client holds the conversation already. */
        NONE,
        /** One {@code MESSAGES_SNAPSHOT} of the conversation. */
        SNAPSHOT,
        /** An empty {@code MESSAGES_SNAPSHOT}, then one of the conversation. */
        CLEAR_THEN_SNAPSHOT
    }

    public Conversation {
        history = List.copyOf(history);
        added = List.copyOf(added);
    }
}
