package dev.aguistate.threads;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.Message;
import java.time.Instant;
import java.util.List;

/**
 * A conversation thread as stored: its thread-scoped state, its complete message history, who owns it, and a
 * version that grows by one with every commit (optimistic concurrency).
 */
public record StoredThread(String threadId, String owner, String agent, ObjectNode state, List<Message> messages,
                           long version, Instant createdAt, Instant updatedAt) {

    public StoredThread {
        messages = List.copyOf(messages);
    }

    public ThreadSummary summary() {
        return new ThreadSummary(threadId, agent, version, messages.size(), createdAt, updatedAt);
    }
}
