package dev.aguistate.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.RunFailure;
import dev.aguistate.agent.RunJournal;
import dev.aguistate.agent.RunStart;
import dev.aguistate.agent.ThreadInterrupts;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.state.StateScopes;
import dev.aguistate.threads.RunLock;
import dev.aguistate.threads.ScopedState;
import dev.aguistate.threads.StoreConfig;
import dev.aguistate.threads.StoreUnavailable;
import dev.aguistate.threads.StoredThread;
import dev.aguistate.threads.ThreadCommit;
import dev.aguistate.threads.ThreadMeta;
import dev.aguistate.threads.ThreadStore;
import dev.aguistate.threads.VersionConflict;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Ties a run to its stored thread: the owner check (another user's thread is "not found"), one run per thread
 * across replicas (409), what the run starts from, and the commit of its outcome with a version check.
 */
@ApplicationScoped
public class ThreadRuns {

    /**
     * A run that may go ahead, holding its thread until {@link #release} is called; {@code renewal} keeps the
     * claim from lapsing while the run goes on.
     */
    public record Claimed(RunStart start, RunLock lock, Cancellable renewal) {}

    /** A run refused before its stream opened. */
    static final class Refused extends RuntimeException {
        final ErrorBody error;

        Refused(ErrorBody error) {
            super(error.message(), null, false, false);
            this.error = error;
        }
    }

    private static final Logger LOG = Logger.getLogger(ThreadRuns.class);
    private static final Duration LOCK_RETRY = Duration.ofMillis(50);

    private final ThreadStore store;
    private final StoreConfig config;

    ThreadRuns(ThreadStore store, StoreConfig config) {
        this.store = store;
        this.config = config;
    }

    /** Fails with {@link Refused} when the thread is another user's or already running. */
    Uni<Claimed> claim(String user, AgentDefinition agent, RunAgentInput input) {
        return store.load(input.threadId()).onItem().transformToUni(stored -> {
            if (stored.isPresent() && !stored.get().owner().equals(user)) {
                throw new Refused(threadNotFound(input.threadId()));
            }
            long deadline = System.nanoTime() + config.lockWait().toNanos();
            return Uni.combine().all().unis(store.loadScope(ScopedState.userScope(user)),
                            store.loadScope(ScopedState.APP_SCOPE), lock(input.threadId(), deadline))
                    .with((userScope, appScope, lock) -> {
                        RunStart start = start(user, agent, input, stored, userScope, appScope);
                        return new Claimed(start, lock, keepClaimed(lock));
                    });
        });
    }

    /** Claims the thread, trying again until {@code deadline} (nanoTime) while a run that may be ending holds it. */
    private Uni<RunLock> lock(String threadId, long deadline) {
        return store.tryLock(threadId, config.lockTtl()).onItem().transformToUni(lock -> {
            if (lock.isPresent()) {
                return Uni.createFrom().item(lock.get());
            }
            if (System.nanoTime() >= deadline) {
                return Uni.createFrom().failure(busy(threadId));
            }
            return Uni.createFrom().voidItem().onItem().delayIt().by(LOCK_RETRY)
                    .onItem().transformToUni(retry -> lock(threadId, deadline));
        });
    }

    private static Refused busy(String threadId) {
        return new Refused(new ErrorBody(409, "thread_busy", "thread '" + threadId
                + "' has a run in progress; retry when it has finished"));
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

    /** A claim the store cannot take back now lapses after {@code agui.store.lock-ttl}. */
    Uni<Void> release(Claimed claimed) {
        claimed.renewal().cancel();
        return store.unlock(claimed.lock()).onFailure(StoreUnavailable.class).recoverWithItem(failure -> {
            LOG.warnf("threadId=%s: releasing the run's claim failed; it lapses after agui.store.lock-ttl: %s",
                    claimed.lock().threadId(), failure.getMessage());
            return null;
        });
    }

    /** The answer for a missing thread and for another user's, alike, so that ids leak nothing. */
    static ErrorBody threadNotFound(String threadId) {
        return new ErrorBody(404, "thread_not_found", "there is no thread '" + threadId + "'");
    }

    /**
     * The run starts from the thread's keys with the user's ({@code user:}) and everyone's ({@code app:}) shared
     * keys merged in; its commit splits the final state back ({@code temp:} keys are dropped), setting the run's
     * keys over what is stored so that keys the run's agent does not know survive.
     */
    private RunStart start(String user, AgentDefinition agent, RunAgentInput input, Optional<StoredThread> stored,
                           ScopedState userScope, ScopedState appScope) {
        long version = stored.map(StoredThread::version).orElse(0L);
        ObjectNode threadState = stored.map(StoredThread::state).orElseGet(JsonNodeFactory.instance::objectNode);
        ObjectNode startState = threadState.deepCopy();
        startState.setAll(StateScopes.part(userScope.state(), StateScopes.USER));
        startState.setAll(StateScopes.part(appScope.state(), StateScopes.APP));
        ThreadMeta storedMeta = stored.map(StoredThread::meta).orElse(ThreadMeta.EMPTY);
        RunJournal journal = (state, messages, interrupts) -> {
            List<ThreadCommit.ScopeWrite> scopes = new ArrayList<>();
            changedScope(userScope, StateScopes.part(state, StateScopes.USER)).ifPresent(scopes::add);
            changedScope(appScope, StateScopes.part(state, StateScopes.APP)).ifPresent(scopes::add);
            ThreadMeta meta = new ThreadMeta(arrivalTimes(messages, storedMeta.messageTimes()), interrupts.open(),
                    interrupts.resolved());
            return store.commit(new ThreadCommit(new StoredThread(input.threadId(), user, agent.name(),
                            threadState.deepCopy().setAll(StateScopes.part(state, null)), messages, meta, version,
                            Instant.EPOCH, Instant.EPOCH), version, scopes))
                    .onFailure(VersionConflict.class).transform(conflict -> new RunFailure("thread_conflict",
                            "The thread changed while this run was in progress; nothing of this run was kept."))
                    .replaceWithVoid();
        };
        boolean known = stored.isPresent() || !startState.isEmpty();
        return new RunStart(input, known ? startState : null,
                stored.map(StoredThread::messages).orElse(List.of()), storedMeta.messageTimes(),
                new ThreadInterrupts(storedMeta.openInterrupts(), storedMeta.resolvedInterrupts()), journal);
    }

    /** When each message first reached the server: as remembered, or now for the ones this run brought. */
    private static Map<String, Instant> arrivalTimes(List<Message> messages, Map<String, Instant> known) {
        Instant now = Instant.now();
        Map<String, Instant> times = new HashMap<>();
        messages.forEach(m -> times.put(m.id(), known.getOrDefault(m.id(), now)));
        return times;
    }

    /**
     * The scope with the run's keys of it set; keys the run did not have (another agent's) stay. Empty when that
     * changes nothing, so runs that leave a shared scope alone never conflict on it.
     */
    private static Optional<ThreadCommit.ScopeWrite> changedScope(ScopedState loaded, ObjectNode runKeys) {
        ObjectNode next = loaded.state().deepCopy().setAll(runKeys);
        return next.equals(loaded.state()) ? Optional.empty()
                : Optional.of(new ThreadCommit.ScopeWrite(loaded.scope(), next, loaded.version()));
    }

}
