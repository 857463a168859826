package dev.aguistate.session;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.Message;
import dev.aguistate.run.RunFailure;
import dev.aguistate.run.RunEnd;
import dev.aguistate.run.RunJournal;
import dev.aguistate.run.RunProgress;
import dev.aguistate.state.StateLayers;
import dev.aguistate.store.RunRecord;
import dev.aguistate.store.ScopedState;
import dev.aguistate.store.StoreFailure;
import dev.aguistate.store.StoreUnavailable;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadMeta;
import dev.aguistate.store.ThreadStore;
import dev.aguistate.store.ThreadTooLarge;
import dev.aguistate.store.VersionConflict;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Keeps one run's progress in the thread store: the thread and the shared scopes the run changed, in atomic
 * commits that check each against the version the run last saw, so a run never overwrites what another wrote
 * meanwhile. Every checkpoint names the run as the thread's active one; its end records how it ended, then hands
 * the stored thread to {@code ended} (the summarizer), which must not wait for anything.
 */
final class ThreadJournal implements RunJournal {

    private static final Logger LOG = Logger.getLogger(ThreadJournal.class);

    private final ThreadStore store;
    private final String threadId;
    private final String owner;
    private final String agent;
    private final ScopedState userScope;
    private final ScopedState appScope;
    private final StateLayers loaded;
    private final ThreadMeta storedMeta;
    private final RunRecord run;
    private final Consumer<StoredThread> ended;
    /** The thread's version as this run last wrote or read it; 0 for a new thread. */
    private long version;
    private long userVersion;
    private long appVersion;
    /** The layers as last kept: what the next commit compares with. */
    private StateLayers kept;
    /** The progress last kept, which a run ending without progress of its own keeps with its end. */
    private RunProgress lastKept;

    ThreadJournal(ThreadStore store, String threadId, String owner, String agent, long version, ObjectNode threadState,
                  ScopedState userScope, ScopedState appScope, ThreadMeta storedMeta, RunRecord run,
                  Consumer<StoredThread> ended) {
        this.store = store;
        this.threadId = threadId;
        this.owner = owner;
        this.agent = agent;
        this.version = version;
        this.userScope = userScope;
        this.appScope = appScope;
        this.loaded = new StateLayers(threadState, userScope.state(), appScope.state());
        this.kept = loaded;
        this.userVersion = userScope.version();
        this.appVersion = appScope.version();
        this.storedMeta = storedMeta;
        this.run = run;
        this.ended = ended;
    }

    /** The state the run starts from, before the client's state is laid over it. */
    StateLayers loaded() {
        return loaded;
    }

    @Override
    public Uni<Void> keep(RunProgress progress) {
        return write(progress, run, storedMeta.lastRun()).replaceWithVoid();
    }

    @Override
    public Uni<Void> end(RunProgress progress, RunEnd end) {
        RunProgress last = progress != null ? progress : lastKept;
        if (last == null) {
            return Uni.createFrom().voidItem(); // nothing was kept, so there is no thread to tell
        }
        if (end.failed()) {
            LOG.infof("threadId=%s runId=%s: the run ended with %s; its checkpoints are kept", threadId, run.runId(),
                    end.outcome());
        }
        return write(last, null, run.ended(Instant.now(), end.outcome())).invoke(ended).replaceWithVoid();
    }

    /**
     * Splits the state back into the thread and the scopes; a scope the run left as it was is not written, so
     * runs that leave a shared scope alone never conflict on it.
     */
    private Uni<StoredThread> write(RunProgress progress, RunRecord active, RunRecord last) {
        StateLayers after = kept.absorb(progress.state());
        boolean userWritten = !after.user().equals(kept.user());
        boolean appWritten = !after.app().equals(kept.app());
        List<ThreadCommit.ScopeWrite> scopes = new ArrayList<>();
        if (userWritten) {
            scopes.add(new ThreadCommit.ScopeWrite(userScope.scope(), after.user(), userVersion));
        }
        if (appWritten) {
            scopes.add(new ThreadCommit.ScopeWrite(appScope.scope(), after.app(), appVersion));
        }
        ThreadMeta meta = new ThreadMeta(arrivalTimes(progress.messages(), storedMeta.messageTimes()),
                progress.interrupts().open(), progress.interrupts().resolved(), active, last);
        StoredThread thread = new StoredThread(threadId, owner, agent, after.thread(), progress.messages(), meta,
                version, Instant.EPOCH, Instant.EPOCH);
        return store.commit(new ThreadCommit(thread, version, scopes))
                .onFailure(StoreFailure.class).transform(failure -> runFailure((StoreFailure) failure))
                .invoke(stored -> {
                    version = stored.version();
                    userVersion += userWritten ? 1 : 0;
                    appVersion += appWritten ? 1 : 0;
                    kept = after;
                    lastKept = progress;
                });
    }

    /** Why the store refused the commit, as the run's stable error. */
    private static RunFailure runFailure(StoreFailure failure) {
        if (failure instanceof VersionConflict) {
            return RunFailure.ofStore("thread_conflict", "The thread changed while this run was in progress; "
                    + "what the run completed before is kept, this step is not.");
        }
        if (failure instanceof ThreadTooLarge) {
            return new RunFailure("thread_too_large", "The thread would grow over the size this server keeps "
                    + "(agui.store.max-thread-bytes); this step of the run was not kept. Start a new thread.");
        }
        if (failure instanceof StoreUnavailable) {
            return RunFailure.ofStore("store_unavailable",
                    "The thread store did not answer in time; this step of the run may not have been kept. Try again.");
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
