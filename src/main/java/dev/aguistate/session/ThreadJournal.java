package dev.aguistate.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.Message;
import dev.aguistate.run.RunFailure;
import dev.aguistate.run.RunJournal;
import dev.aguistate.run.ThreadInterrupts;
import dev.aguistate.state.StateLayers;
import dev.aguistate.threads.ScopedState;
import dev.aguistate.threads.StoreFailure;
import dev.aguistate.threads.StoreUnavailable;
import dev.aguistate.threads.StoredThread;
import dev.aguistate.threads.ThreadCommit;
import dev.aguistate.threads.ThreadMeta;
import dev.aguistate.threads.ThreadStore;
import dev.aguistate.threads.ThreadTooLarge;
import dev.aguistate.threads.VersionConflict;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps one run's outcome in the thread store: the thread and the shared scopes the run changed, in one atomic
 * commit that checks each against the version the run started from, so a run never overwrites what another wrote
 * meanwhile.
 */
final class ThreadJournal implements RunJournal {

    private final ThreadStore store;
    private final String threadId;
    private final String owner;
    private final String agent;
    /** The thread's version when the run started; 0 for a new thread. */
    private final long version;
    private final ScopedState userScope;
    private final ScopedState appScope;
    private final StateLayers loaded;
    private final ThreadMeta storedMeta;

    ThreadJournal(ThreadStore store, String threadId, String owner, String agent, long version, ObjectNode threadState,
                  ScopedState userScope, ScopedState appScope, ThreadMeta storedMeta) {
        this.store = store;
        this.threadId = threadId;
        this.owner = owner;
        this.agent = agent;
        this.version = version;
        this.userScope = userScope;
        this.appScope = appScope;
        this.loaded = new StateLayers(threadState, userScope.state(), appScope.state());
        this.storedMeta = storedMeta;
    }

    /** The state the run starts from, before the client's state is laid over it. */
    StateLayers loaded() {
        return loaded;
    }

    /**
     * Splits the final state back into the thread and the scopes; a scope the run left as it was is not written,
     * so runs that leave a shared scope alone never conflict on it.
     */
    @Override
    public Uni<Void> commit(JsonNode state, List<Message> messages, ThreadInterrupts interrupts) {
        StateLayers after = loaded.absorb(state);
        List<ThreadCommit.ScopeWrite> scopes = new ArrayList<>();
        if (!after.user().equals(loaded.user())) {
            scopes.add(new ThreadCommit.ScopeWrite(userScope.scope(), after.user(), userScope.version()));
        }
        if (!after.app().equals(loaded.app())) {
            scopes.add(new ThreadCommit.ScopeWrite(appScope.scope(), after.app(), appScope.version()));
        }
        ThreadMeta meta = new ThreadMeta(arrivalTimes(messages, storedMeta.messageTimes()), interrupts.open(),
                interrupts.resolved());
        StoredThread thread = new StoredThread(threadId, owner, agent, after.thread(), messages, meta, version,
                Instant.EPOCH, Instant.EPOCH);
        return store.commit(new ThreadCommit(thread, version, scopes))
                .onFailure(StoreFailure.class).transform(failure -> runFailure((StoreFailure) failure))
                .replaceWithVoid();
    }

    /** Why the store refused the commit, as the run's stable error. */
    private static RunFailure runFailure(StoreFailure failure) {
        if (failure instanceof VersionConflict) {
            return new RunFailure("thread_conflict",
                    "The thread changed while this run was in progress; nothing of this run was kept.");
        }
        if (failure instanceof ThreadTooLarge) {
            return new RunFailure("thread_too_large", "The thread would grow over the size this server keeps "
                    + "(agui.store.max-thread-bytes); nothing of this run was kept. Start a new thread.");
        }
        if (failure instanceof StoreUnavailable) {
            return new RunFailure("store_unavailable",
                    "The thread store did not answer in time; this run may not have been kept. Try again.");
        }
        throw new IllegalStateException("no run error for store failure " + failure.getClass().getName());
    }

    /** When each message first reached the server: as remembered, or now for the ones this run brought. */
    private static Map<String, Instant> arrivalTimes(List<Message> messages, Map<String, Instant> known) {
        Instant now = Instant.now();
        Map<String, Instant> times = new HashMap<>();
        messages.forEach(m -> times.put(m.id(), known.getOrDefault(m.id(), now)));
        return times;
    }
}
