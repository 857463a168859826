package dev.aguistate.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Message;
import dev.aguistate.run.RunStart;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.StoredThread;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The thread as a run found it: its messages' ids and its own state (not the user's or everyone's scopes). A run
 * keeps it in the base entry of its log ({@link LiveRun}), so that a request that rolls the run back
 * ({@code multitask: rollback}), on any replica, can remove what the run added to the thread.
 */
record RunBefore(List<String> messageIds, ObjectNode state) {

    private static final String FIELD = "before";

    RunBefore {
        messageIds = List.copyOf(messageIds);
    }

    /** What {@code start} found: for its log's base entry. */
    static RunBefore of(RunStart start) {
        return new RunBefore(start.storedHistory().stream().map(Message::id).toList(), start.storedState().thread());
    }

    /** Written into a log's base entry. */
    void writeTo(ObjectNode base) {
        ObjectNode before = base.putObject(FIELD);
        ArrayNode ids = before.putArray("messageIds");
        messageIds.forEach(ids::add);
        before.set("state", state);
    }

    /** Read from a log's base entry; empty when the log has lost it (a log trimmed to its latest events). */
    static Optional<RunBefore> from(List<LoggedEvent> firstEntry) {
        if (firstEntry.isEmpty() || firstEntry.get(0).seq() != 0) {
            return Optional.empty();
        }
        JsonNode before = AgUiJson.tree(firstEntry.get(0).json()).get(FIELD);
        if (before == null || !before.path("state").isObject()) {
            return Optional.empty();
        }
        List<String> ids = new ArrayList<>();
        before.path("messageIds").forEach(id -> ids.add(id.asText()));
        return Optional.of(new RunBefore(ids, (ObjectNode) before.get("state")));
    }

    /**
     * The first stored message the run added, where the thread's messages leave the ones it found; empty when it
     * added none.
     */
    Optional<String> firstAddedIn(StoredThread thread) {
        List<Message> messages = thread.messages();
        for (int i = 0; i < messages.size(); i++) {
            if (i >= messageIds.size() || !messages.get(i).id().equals(messageIds.get(i))) {
                return Optional.of(messages.get(i).id());
            }
        }
        return Optional.empty();
    }

    /** The thread with the state the run found. */
    StoredThread withStateBefore(StoredThread thread) {
        return new StoredThread(thread.threadId(), thread.owner(), thread.agent(), state.deepCopy(),
                thread.messages(), thread.meta(), thread.version(), thread.createdAt(), thread.updatedAt(),
                thread.conversationSummary(), thread.info());
    }
}
