package dev.aguistate.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.run.request.PriorSummary;
import dev.aguistate.run.RunOptions;
import dev.aguistate.run.RunStart;
import dev.aguistate.summary.Summarizer;
import dev.aguistate.summary.ThreadNamer;
import dev.aguistate.store.ConversationSummary;
import dev.aguistate.run.ThreadInterrupts;
import dev.aguistate.store.OutageLog;
import dev.aguistate.store.RunLock;
import dev.aguistate.store.RunRecord;
import dev.aguistate.store.ScopedState;
import dev.aguistate.store.StoreConfig;
import dev.aguistate.store.StoreUnavailable;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.store.ThreadLocks;
import dev.aguistate.store.ThreadMeta;
import dev.aguistate.store.ThreadStore;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * What a run request means for its stored thread: the owner check, one run per thread across replicas, what the
 * run starts from (the stored thread and the user's and everyone's shared scopes), and where its outcome is kept
 * ({@link ThreadJournal}).
 */
@ApplicationScoped
@Startup
public class ThreadSessions {

    private static final Logger LOG = Logger.getLogger(ThreadSessions.class);
    private static final OutageLog RENEWALS = new OutageLog(LOG, "renewing runs' claims",
            "each is tried again every third of agui.store.lock-ttl; a claim not renewed in time lapses");
    private static final OutageLog RELEASES = new OutageLog(LOG, "releasing runs' claims",
            "a claim not released lapses after agui.store.lock-ttl");
    private static final Duration LOCK_RETRY = Duration.ofMillis(50);

    private final ThreadStore store;
    private final ThreadLocks locks;
    private final StoreConfig config;
    private final Summarizer summarizer;
    private final ThreadNamer namer;
    private final Vertx vertx;

    ThreadSessions(ThreadStore store, ThreadLocks locks, StoreConfig config, Summarizer summarizer,
                   ThreadNamer namer, Vertx vertx) {
        this.store = store;
        this.locks = locks;
        this.config = config;
        this.summarizer = summarizer;
        this.namer = namer;
        this.vertx = vertx;
    }

    /**
     * Claims the caller's thread for a run of {@code agent}, waiting {@code agui.store.lock-wait} for a run that may
     * be ending.
     *
     * @return a failed Uni with {@link SessionRefused} when the thread is already running, another agent's, or its
     *         messages cannot continue it, or the store's failure when it cannot be reached
     */
    Uni<ThreadSession> open(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options) {
        return open(caller, agent, input, options, Optional.empty());
    }

    /**
     * As {@link #open}, on the thread without what a stopped run added to it ({@code multitask: rollback}): its state
     * as the run found it, and the messages from the first the run added on dropped, as a rewind drops them.
     */
    Uni<ThreadSession> openRolledBack(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                                      RunBefore stopped) {
        return open(caller, agent, input, options, Optional.of(stopped));
    }

    private Uni<ThreadSession> open(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                                    Optional<RunBefore> rollback) {
        ThreadKey thread = caller.thread(input.threadId());
        return checked(caller, agent, input).chain(() -> {
            long deadline = System.nanoTime() + config.lockWait().toNanos();
            return lock(thread, input.runId(), deadline)
                    .chain(claim -> claimed(caller, agent, input, options, claim, rollback));
        });
    }

    /**
     * Loads the thread only to check that the caller may run {@code agent} on it, so that nobody claims, stops or
     * waits for a thread that is not theirs.
     *
     * @return a failed Uni with {@link SessionRefused} when the thread is another user's or another agent's
     */
    Uni<Void> checked(Caller caller, AgentDefinition agent, RunAgentInput input) {
        return store.load(caller.thread(input.threadId()))
                .invoke(stored -> checkAccess(caller, agent, input.threadId(), stored)).replaceWithVoid();
    }

    /** Claims the thread for the run if nobody holds it, once, without waiting. */
    Uni<Optional<RunLock>> tryClaim(ThreadKey thread, String runId) {
        return locks.tryLock(thread, runId, config.lockTtl());
    }

    /**
     * The session of a run that holds its thread's {@code claim}. The run starts from a load under the claim: a run
     * that ended since the access check (a client that stopped a run and at once sent the next message, a queued
     * run whose turn came) has changed the thread, and a run started from an earlier load would fail its first
     * commit with thread_conflict. The claim is given back when this fails.
     */
    Uni<ThreadSession> claimed(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                               RunLock claim) {
        return claimed(caller, agent, input, options, claim, Optional.empty());
    }

    private Uni<ThreadSession> claimed(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                                       RunLock claim, Optional<RunBefore> rollback) {
        return store.load(claim.thread())
                .onItem().transformToUni(current -> rollback.isEmpty()
                        ? prepare(caller, agent, input, options, current, claim)
                        : prepare(caller, agent, input, current.flatMap(rollback.get()::firstAddedIn)
                                        .map(options::rewoundBefore).orElse(options),
                                current.map(rollback.get()::withStateBefore), claim))
                .onFailure().call(failure -> locks.unlock(claim).onFailure().recoverWithNull());
    }

    private Uni<ThreadSession> prepare(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                                       Optional<StoredThread> stored, RunLock lock) {
        checkAccess(caller, agent, input.threadId(), stored);
        Reconciliation.Result reconciled = reconcile(input, options, stored);
        return Uni.combine().all().unis(store.loadScope(ScopedState.userScope(caller.owner())),
                        store.loadScope(caller.appScope()))
                .with((userScope, appScope) -> new ThreadSession(caller,
                        start(caller, agent, input, options, stored, reconciled, userScope, appScope, lock), lock,
                        keepClaimed(lock)));
    }

    /** @throws SessionRefused when the thread is another user's, or another agent's */
    static void checkAccess(Caller caller, AgentDefinition agent, String threadId, Optional<StoredThread> stored) {
        if (stored.isPresent() && !ThreadAccess.visibleTo(stored.get(), caller)) {
            throw SessionRefused.notFound(threadId);
        }
        if (stored.isPresent() && !stored.get().agent().equals(agent.name())) {
            throw SessionRefused.anotherAgent(threadId, stored.get().agent(), agent.name());
        }
    }

    /** Gives the thread back, however the run ended. */
    Uni<Void> release(ThreadSession session) {
        session.renewal().cancel();
        return unclaim(session.lock());
    }

    /** Gives back a claim no run was made with. */
    Uni<Void> unclaim(RunLock claim) {
        return locks.unlock(claim).invoke(RELEASES::succeeded)
                .onFailure(StoreUnavailable.class).recoverWithItem(failure -> {
                    RELEASES.failed("threadId=" + claim.threadId(), failure);
                    return null;
                });
    }

    /** Claims the thread, trying again until {@code deadline} (nanoTime) while a run that may be ending holds it. */
    private Uni<RunLock> lock(ThreadKey thread, String runId, long deadline) {
        return locks.tryLock(thread, runId, config.lockTtl()).onItem().transformToUni(lock -> {
            if (lock.isPresent()) {
                return Uni.createFrom().item(lock.get());
            }
            if (System.nanoTime() >= deadline) {
                return Uni.createFrom().failure(SessionRefused.busy(thread.threadId()));
            }
            return Uni.createFrom().voidItem().onItem().delayIt().by(LOCK_RETRY)
                    .onItem().transformToUni(retry -> lock(thread, runId, deadline));
        });
    }

    /**
     * Renews the claim every third of {@code agui.store.lock-ttl}, so a run may last longer than that and still be
     * the thread's only one; a crashed replica stops renewing, and its claim lapses. A renewal that finds the claim
     * lost is logged: the commit's version check still keeps the thread consistent.
     */
    private Cancellable keepClaimed(RunLock lock) {
        return new ClaimRenewal(lock, Math.max(1, config.lockTtl().dividedBy(3).toMillis()));
    }

    /**
     * A run's claim renewed on a Vert.x timer. Most runs end long before their first renewal: a Mutiny ticks stream
     * made a subscription, its operators and a task on a scheduler thread for each of them, and cancelled them all.
     * A tick while the last renewal is still out is skipped, so a slow store never has two at once.
     */
    private final class ClaimRenewal implements Handler<Long>, Cancellable {

        private final RunLock lock;
        private final AtomicBoolean renewing = new AtomicBoolean();
        private final long timer;

        /** Starts renewing; the timer's first tick comes through Vert.x's queue, after the fields are set. */
        ClaimRenewal(RunLock lock, long periodMs) {
            this.lock = lock;
            this.timer = vertx.setPeriodic(periodMs, this);
        }

        @Override
        public void handle(Long tick) {
            if (!renewing.compareAndSet(false, true)) {
                return;
            }
            // deferred: a store that throws instead of failing its Uni still frees the next tick
            Uni.createFrom().deferred(() -> locks.renew(lock, config.lockTtl())).subscribe().with(held -> {
                renewing.set(false);
                RENEWALS.succeeded();
                if (!held) {
                    LOG.warnf("threadId=%s: the run's claim lapsed; another run may take the thread",
                            lock.threadId());
                }
            }, failure -> {
                renewing.set(false); // the next tick tries again
                RENEWALS.failed("threadId=" + lock.threadId(), failure);
            });
        }

        @Override
        public void cancel() {
            vertx.cancelTimer(timer);
        }
    }

    /**
     * The request's messages against the stored ones; a stored message the client changed is logged and kept.
     *
     * @throws SessionRefused when they cannot continue the thread
     */
    private static Reconciliation.Result reconcile(RunAgentInput input, RunOptions options,
                                                   Optional<StoredThread> stored) {
        Reconciliation.Result reconciled;
        try {
            reconciled = Reconciliation.of(stored.map(StoredThread::messages).orElse(List.of()), input.messages(),
                    options.rewindBeforeMessageId());
        } catch (Reconciliation.Refused refused) {
            throw SessionRefused.messages(refused.getMessage());
        }
        if (!reconciled.conflicts().isEmpty()) {
            LOG.warnf("threadId=%s runId=%s: the request changed stored message(s) %s; the stored versions are kept",
                    input.threadId(), input.runId(), reconciled.conflicts());
        }
        return reconciled;
    }

    private RunStart start(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                           Optional<StoredThread> stored, Reconciliation.Result reconciled, ScopedState userScope,
                           ScopedState appScope, RunLock lock) {
        ThreadMeta meta = stored.map(StoredThread::meta).orElse(ThreadMeta.EMPTY);
        ConversationSummary summary = stored.map(StoredThread::conversationSummary).orElse(null);
        ThreadJournal journal = new ThreadJournal(store, input.threadId(), caller.owner(), agent.name(),
                stored.map(StoredThread::version).orElse(0L),
                stored.map(StoredThread::state).orElseGet(JsonNodeFactory.instance::objectNode),
                userScope, appScope, meta, RunRecord.started(input.runId(), lock.token(), Instant.now()),
                committed -> {
                    summarizer.committed(agent, committed, summary);
                    namer.committed(committed);
                });
        return new RunStart(input, options, journal.loaded(), stored.map(StoredThread::messages).orElse(List.of()),
                reconciled.conversation(), meta.messageTimes(),
                interruptsOf(meta, reconciled.conversation().history()), journal,
                summary == null || !summarizer.usable(summary) ? null
                        : new PriorSummary(summary.text(), summary.throughMessageId()),
                caller.credential());
    }

    /** The thread's interrupts, without those about calls a rewind or regenerate dropped. */
    private static ThreadInterrupts interruptsOf(ThreadMeta meta, List<Message> history) {
        Set<String> calls = new HashSet<>();
        history.stream().filter(m -> m instanceof Message.Assistant a && a.toolCalls() != null)
                .forEach(m -> ((Message.Assistant) m).toolCalls().forEach(c -> calls.add(c.id())));
        return new ThreadInterrupts(meta.openInterrupts().stream().filter(i -> calls.contains(i.toolCallId())).toList(),
                meta.resolvedInterrupts());
    }
}
