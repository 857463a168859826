package dev.aguistate.store;

import java.util.List;

/**
 * A commit as the stores write it, made once per commit: the thread's state, messages and metadata, and the state
 * of each shared scope it writes, as UTF-8 JSON.
 *
 * <p>Their lengths are the sizes the limits count: a thread's size is the length of its three parts (what Redis
 * and PostgreSQL store and what the in-memory store holds) and of its summary's JSON, which a commit keeps as
 * stored (so each store adds it when it writes), and neither it nor any scope's state may exceed the store's limit
 * ({@code agui.store.max-thread-bytes}).
 *
 * @param scopeStates in the order of {@link ThreadCommit#scopes()}
 */
public record SerializedCommit(byte[] state, byte[] messages, byte[] meta, List<byte[]> scopeStates) {

    /** @throws ThreadTooLarge when the thread or a scope's state is larger than {@code maxBytes} */
    public static SerializedCommit of(ThreadCommit commit, long maxBytes) {
        StoredThread thread = commit.thread();
        SerializedCommit serialized = new SerializedCommit(ThreadJson.state(thread.state()),
                ThreadJson.messages(thread.messages()), ThreadJson.meta(thread.meta()),
                commit.scopes().stream().map(write -> ThreadJson.state(write.state())).toList());
        if (serialized.threadBytes() > maxBytes) {
            throw new ThreadTooLarge("thread " + thread.threadId(), serialized.threadBytes(), maxBytes);
        }
        for (int n = 0; n < commit.scopes().size(); n++) {
            int bytes = serialized.scopeStates().get(n).length;
            if (bytes > maxBytes) {
                throw new ThreadTooLarge("scope " + commit.scopes().get(n).scope(), bytes, maxBytes);
            }
        }
        return serialized;
    }

    public long threadBytes() {
        return (long) state.length + messages.length + meta.length;
    }

    /** The thread's part alone, for keeping it. */
    public SerializedCommit threadOnly() {
        return new SerializedCommit(state, messages, meta, List.of());
    }
}
