package dev.aguistate.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.run.RunStart;
import dev.aguistate.run.ThreadInterrupts;
import dev.aguistate.threads.RunLock;
import dev.aguistate.threads.ScopedState;
import dev.aguistate.threads.StoreConfig;
import dev.aguistate.threads.StoredThread;
import dev.aguistate.threads.ThreadMeta;
import dev.aguistate.threads.ThreadStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * What a run request means for its stored thread: the owner check, one run per thread across replicas, what the
 * run starts from (the stored thread and the user's and everyone's shared scopes), and where its outcome is kept
 * ({@link ThreadJournal}).
 */
@ApplicationScoped
public class ThreadSessions {

    private static final Logger LOG = Logger.getLogger(ThreadSessions.class);
    private static final Duration LOCK_RETRY = Duration.ofMillis(50);

    private final ThreadStore store;
    private final StoreConfig config;

    ThreadSessions(ThreadStore store, StoreConfig config) {
        this.store = store;
        this.config = config;
    }

    /**
     * Claims the thread for a run of {@code agent} by {@code user}.
     *
     * @return a failed Uni with {@link SessionRefused} when the thread is another user's or already running, or
     *         the store's failure when it cannot be reached
     */
    public Uni<ThreadSession> open(String user, AgentDefinition agent, RunAgentInput input) {
        return store.load(input.threadId()).onItem().transformToUni(stored -> {
            if (stored.isPresent() && !ThreadAccess.visibleTo(stored.get(), user)) {
                throw new SessionRefused(SessionRefused.Reason.THREAD_NOT_FOUND, input.threadId());
            }
            long deadline = System.nanoTime() + config.lockWait().toNanos();
            return Uni.combine().all().unis(store.loadScope(ScopedState.userScope(user)),
                            store.loadScope(ScopedState.APP_SCOPE), lock(input.threadId(), deadline))
                    .with((userScope, appScope, lock) ->
                            new ThreadSession(start(user, agent, input, stored, userScope, appScope), lock,
                                    keepClaimed(lock)));
        });
    }

    /** Gives the thread back, however the run ended. */
    public Uni<Void> release(ThreadSession session) {
        session.renewal().cancel();
        return store.unlock(session.lock());
    }

    /** Claims the thread, trying again until {@code deadline} (nanoTime) while a run that may be ending holds it. */
    private Uni<RunLock> lock(String threadId, long deadline) {
        return store.tryLock(threadId, config.lockTtl()).onItem().transformToUni(lock -> {
            if (lock.isPresent()) {
                return Uni.createFrom().item(lock.get());
            }
            if (System.nanoTime() >= deadline) {
                return Uni.createFrom().failure(new SessionRefused(SessionRefused.Reason.THREAD_BUSY, threadId));
            }
            return Uni.createFrom().voidItem().onItem().delayIt().by(LOCK_RETRY)
                    .onItem().transformToUni(retry -> lock(threadId, deadline));
        });
    }

    /**
     * Renews the claim every third of {@code agui.store.lock-ttl}, so a run may last longer than that and still be
     * the thread's only one; a crashed replica stops renewing, and its claim lapses. A renewal that finds the claim
     * lost is logged: the commit's version check still keeps the thread consistent.
     */
    private Cancellable keepClaimed(RunLock lock) {
        return Multi.createFrom().ticks().every(config.lockTtl().dividedBy(3))
                .onOverflow().drop()
                .onItem().transformToUniAndConcatenate(tick -> store.renew(lock, config.lockTtl())
                        .onFailure().recoverWithItem(failure -> {
                            LOG.warnf("threadId=%s: renewing the run's claim failed: %s", lock.threadId(),
                                    failure.toString());
                            return true; // the next tick tries again
                        }))
                .subscribe().with(held -> {
                    if (!held) {
                        LOG.warnf("threadId=%s: the run's claim lapsed; another run may take the thread",
                                lock.threadId());
                    }
                });
    }

    private RunStart start(String user, AgentDefinition agent, RunAgentInput input, Optional<StoredThread> stored,
                           ScopedState userScope, ScopedState appScope) {
        ThreadMeta meta = stored.map(StoredThread::meta).orElse(ThreadMeta.EMPTY);
        ThreadJournal journal = new ThreadJournal(store, input.threadId(), user, agent.name(),
                stored.map(StoredThread::version).orElse(0L),
                stored.map(StoredThread::state).orElseGet(JsonNodeFactory.instance::objectNode),
                userScope, appScope, meta);
        return new RunStart(input, journal.loaded(), stored.map(StoredThread::messages).orElse(List.of()),
                meta.messageTimes(), new ThreadInterrupts(meta.openInterrupts(), meta.resolvedInterrupts()), journal);
    }
}
