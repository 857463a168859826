package dev.aguistate.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.Message;
import java.time.Instant;
import java.util.List;

/**
 * A conversation thread as stored: its thread-scoped state, its complete message history, what the server
 * remembers of it besides, who owns it, and a version that grows by one with every commit (optimistic
 * concurrency).
 *
 * @param conversationSummary the summary of its earlier conversation, or null; a commit never writes it (see
 *                            {@link ThreadSummaries#saveSummary}) and keeps the stored one
 * @param info                its name, archived flag and metadata; a commit never writes them either (see
 *                            {@link ThreadStore#saveInfo}) and keeps the stored ones
 */
public record StoredThread(String threadId, String owner, String agent, ObjectNode state, List<Message> messages,
                           ThreadMeta meta, long version, Instant createdAt, Instant updatedAt,
                           ConversationSummary conversationSummary, ThreadInfo info) {

    public StoredThread {
        messages = List.copyOf(messages);
        meta = meta == null ? ThreadMeta.EMPTY : meta;
        info = info == null ? ThreadInfo.EMPTY : info;
    }

    /** A thread without a summary or info, as a run commits it. */
    public StoredThread(String threadId, String owner, String agent, ObjectNode state, List<Message> messages,
                        ThreadMeta meta, long version, Instant createdAt, Instant updatedAt) {
        this(threadId, owner, agent, state, messages, meta, version, createdAt, updatedAt, null, null);
    }

    /** This thread as a commit stored it. */
    public StoredThread committed(long newVersion, Instant created, Instant updated) {
        return new StoredThread(threadId, owner, agent, state, messages, meta, newVersion, created, updated,
                conversationSummary, info);
    }

    /** This thread with the info the store holds for it. */
    public StoredThread described(ThreadInfo stored) {
        return new StoredThread(threadId, owner, agent, state, messages, meta, version, createdAt, updatedAt,
                conversationSummary, stored);
    }

    /** What names it in the store: its owner and its id. */
    public ThreadKey key() {
        return new ThreadKey(owner, threadId);
    }

    public ThreadSummary summary() {
        return new ThreadSummary(threadId, agent, version, messages.size(), createdAt, updatedAt, info,
                meta.lastRun());
    }
}
