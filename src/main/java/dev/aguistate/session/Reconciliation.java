package dev.aguistate.session;

import dev.aguistate.protocol.Message;
import dev.aguistate.run.Conversation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A request's messages against the stored transcript, by message id. The stored transcript is the truth: a client
 * may add messages, but never change or drop stored ones unless it asks for a regenerate or a rewind.
 *
 * <ul>
 *   <li>Messages with ids the thread has never seen are new: they are appended after the stored history, in the
 *       request's order (a tool message goes right after the call it answers and the results already there).
 *       So a client may send the whole history or only its new messages.</li>
 *   <li>A stored id with different content keeps the stored version; the run restates the history.</li>
 *   <li>Regenerate: a list that is a proper prefix of the stored transcript, ends with a stored user message and
 *       brings nothing new (CopilotKit's regenerate) drops what followed that message and answers it again.</li>
 *   <li>Rewind: {@code forwardedProps.rewindBeforeMessageId} drops the stored messages from that one on; the
 *       request's new messages follow.</li>
 *   <li>Anything else that lacks stored messages (a stale tab, a client that keeps the last turn only) never
 *       truncates the thread: it is restated.</li>
 *   <li>Activity messages ({@code role: "activity"}) are the server's to make: those a client sends are ignored
 *       (AG-UI 1.0's client sends none back, older ones may), and a client that left them out still holds the
 *       conversation.</li>
 * </ul>
 */
final class Reconciliation {

    /** How the request met the stored transcript: what the run logs and the tests check. */
    enum Outcome { NEW_THREAD, APPENDED, NOTHING_NEW, REGENERATED, REWOUND }

    /**
     * @param conflicts ids of stored messages the client sent with different content (the stored ones were kept)
     */
    record Result(Outcome outcome, Conversation conversation, List<String> conflicts) {}

    /** A request whose messages cannot continue the thread; nothing was started or stored. */
    static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    private Reconciliation() {}

    /**
     * @param rewindBefore the id of the first stored message to drop, or null
     * @throws Refused when the rewind anchor is not a stored message, or a new tool message answers no open call
     */
    static Result of(List<Message> stored, List<Message> request, String rewindBefore) {
        List<Message> sent = withoutActivity(request);
        Map<String, Message> storedById = stored.stream()
                .collect(Collectors.toMap(Message::id, Function.identity(), (a, b) -> a, LinkedHashMap::new));
        List<Message> added = sent.stream().filter(m -> !storedById.containsKey(m.id())).toList();
        List<Message> known = sent.stream().filter(m -> storedById.containsKey(m.id())).toList();
        List<String> conflicts = known.stream().filter(m -> !m.equals(storedById.get(m.id()))).map(Message::id).toList();

        if (rewindBefore != null) {
            int at = indexOf(stored, rewindBefore);
            if (at < 0) {
                throw new Refused("forwardedProps.rewindBeforeMessageId names '" + rewindBefore
                        + "', which is not a message of this thread");
            }
            List<Message> history = withAdded(stored.subList(0, at), added);
            return new Result(Outcome.REWOUND, new Conversation(history, added, restatement(sent, history, true),
                    endsOnAQuestion(history)), conflicts);
        }
        if (stored.isEmpty()) {
            List<Message> history = withAdded(List.of(), added);
            return new Result(Outcome.NEW_THREAD, new Conversation(history, added,
                    restatement(sent, history, false), bringsAQuestion(added)), conflicts);
        }
        if (added.isEmpty() && regenerates(withoutActivity(stored), known, conflicts)) {
            List<Message> history = stored.subList(0, indexOf(stored, known.get(known.size() - 1).id()) + 1);
            return new Result(Outcome.REGENERATED, new Conversation(history, added,
                    restatement(sent, history, true), true), conflicts);
        }
        List<Message> history = withAdded(stored, added);
        return new Result(added.isEmpty() ? Outcome.NOTHING_NEW : Outcome.APPENDED, new Conversation(history, added,
                restatement(sent, history, !conflicts.isEmpty()), bringsAQuestion(added)), conflicts);
    }

    /**
     * How the client that sent {@code sent} is brought to {@code conversation} (whose activity messages it need not
     * have sent, see the class comment): nothing when it holds it already (and
     * {@code changed} is false: no stored version replaced one of its messages), one snapshot when merging it by id
     * gives the history in order, else an empty snapshot first.
     */
    private static Conversation.Restatement restatement(List<Message> sent, List<Message> conversation,
                                                        boolean changed) {
        List<Message> history = withoutActivity(conversation);
        if (!changed && sameIds(sent, history)) {
            return Conversation.Restatement.NONE;
        }
        Set<String> inHistory = history.stream().map(Message::id).collect(Collectors.toSet());
        Set<String> held = sent.stream().map(Message::id).collect(Collectors.toSet());
        List<Message> merged = new ArrayList<>(sent.stream().filter(m -> inHistory.contains(m.id())).toList());
        history.stream().filter(m -> !held.contains(m.id())).forEach(merged::add);
        return sameIds(merged, history) ? Conversation.Restatement.SNAPSHOT
                : Conversation.Restatement.CLEAR_THEN_SNAPSHOT;
    }

    /** The client's list is a proper prefix of the stored transcript ending with a stored user message. */
    private static boolean regenerates(List<Message> stored, List<Message> known, List<String> conflicts) {
        if (known.isEmpty() || known.size() >= stored.size() || !conflicts.isEmpty()) {
            return false;
        }
        return sameIds(known, stored.subList(0, known.size())) && known.get(known.size() - 1) instanceof Message.User;
    }

    /**
     * The history with the new messages in place: after everything, except a tool result, which goes right after
     * the call it answers and the results already there.
     *
     * @throws Refused when a new tool message answers no call of the conversation, or one already answered
     */
    private static List<Message> withAdded(List<Message> base, List<Message> added) {
        List<Message> history = new ArrayList<>(base);
        for (Message message : added) {
            if (message instanceof Message.Tool result) {
                history.add(resultPosition(history, result), result);
            } else {
                history.add(message);
            }
        }
        return history;
    }

    private static int resultPosition(List<Message> history, Message.Tool result) {
        Set<String> answered = new HashSet<>();
        for (int i = history.size() - 1; i >= 0; i--) {
            Message message = history.get(i);
            if (message instanceof Message.Tool tool) {
                answered.add(tool.toolCallId());
            } else if (message instanceof Message.Assistant a && a.toolCalls() != null
                    && a.toolCalls().stream().anyMatch(c -> c.id().equals(result.toolCallId()))) {
                if (answered.contains(result.toolCallId())) {
                    throw new Refused("tool message '" + result.id() + "' answers tool call '" + result.toolCallId()
                            + "', which already has a result");
                }
                int at = i + 1;
                while (at < history.size() && history.get(at) instanceof Message.Tool) {
                    at++;
                }
                return at;
            }
        }
        throw new Refused("tool message '" + result.id() + "' answers tool call '" + result.toolCallId()
                + "', which is not a call of this conversation");
    }

    /** A new user message or tool result: something for the model to answer. */
    private static boolean bringsAQuestion(List<Message> added) {
        return added.stream().anyMatch(m -> m instanceof Message.User || m instanceof Message.Tool);
    }

    private static boolean endsOnAQuestion(List<Message> history) {
        return !history.isEmpty() && (history.get(history.size() - 1) instanceof Message.User
                || history.get(history.size() - 1) instanceof Message.Tool);
    }

    private static List<Message> withoutActivity(List<Message> messages) {
        return messages.stream().filter(m -> !(m instanceof Message.Activity)).toList();
    }

    private static boolean sameIds(List<Message> a, List<Message> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).id().equals(b.get(i).id())) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(List<Message> messages, String id) {
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }
}
