package dev.aguistate.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.mutiny.BoundedConcurrency;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.EventType;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.protocol.SseFrames;
import dev.aguistate.state.StateLayers;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.RunLock;
import dev.aguistate.store.RunRecord;
import dev.aguistate.store.ScopedState;
import dev.aguistate.store.StoreConfig;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadLocks;
import dev.aguistate.store.ThreadStore;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Connections to a thread's runs from any replica ({@code POST /agui/{agent}/connect}), and stop requests. What a
 * connection gets depends on the thread and the client's cursor:
 * <ul>
 *   <li>a live run and a cursor in it: exactly the events after the cursor, then the live ones;</li>
 *   <li>a live run and no cursor, or one the log does not hold (expired, or beyond the run's events): the join
 *       prelude ({@link RunProjection}), then the live events;</li>
 *   <li>a cursor in a run that ended and whose log is still kept: the events after it, to the run's end;</li>
 *   <li>a run that the thread names as active but no replica holds (its replica died): the thread as kept, then
 *       {@code RUN_ERROR run_lost};</li>
 *   <li>otherwise the thread restated in a run of its own: {@code MESSAGES_SNAPSHOT}, {@code STATE_SNAPSHOT}.</li>
 * </ul>
 * Following a run on another replica, the connection checks every {@code agui.store.lock-ttl} that the run is
 * still held, so that a run lost with its replica ends truthfully rather than never.
 */
@ApplicationScoped
@Startup
public class RunConnections {

    private static final Logger LOG = Logger.getLogger(RunConnections.class);
    /** Stands for the end of a run that was lost: no replica holds it and its log has no terminal event. */
    private static final LoggedEvent LOST = new LoggedEvent(-1, "");
    /** Follows a run's terminal event: what ends a connection's stream after that event. */
    private static final LoggedEvent END = new LoggedEvent(-2, "");

    private final ThreadStore store;
    private final ThreadLocks locks;
    private final RunEventLog log;
    private final RunClaims claims;
    private final StoreConfig storeConfig;
    /** As many joins project a run's log at once as there are processors. */
    private final BoundedConcurrency projections =
            new BoundedConcurrency(Runtime.getRuntime().availableProcessors());

    RunConnections(ThreadStore store, ThreadLocks locks, RunEventLog log, RunClaims claims, StoreConfig storeConfig) {
        this.store = store;
        this.locks = locks;
        this.log = log;
        this.claims = claims;
        this.storeConfig = storeConfig;
    }

    /**
     * The frames a connection to the caller's thread gets. Another user's thread or run of the same id is not the
     * caller's: the caller gets what they would for a thread that does not exist.
     *
     * @return a failed Uni with {@link SessionRefused} when the thread is another agent's
     */
    public Uni<Multi<byte[]>> connect(Caller caller, AgentDefinition agent, RunAgentInput input,
                                      Optional<Cursor> cursor) {
        String threadId = input.threadId();
        return store.load(caller.thread(threadId)).chain(stored -> {
            ThreadSessions.checkAccess(caller, agent, threadId, stored);
            return claims.of(caller, threadId).chain(claim -> {
                if (claim.isPresent()) {
                    return live(caller, agent, stored, claim.get(), cursor);
                }
                RunRecord active = stored.map(t -> t.meta().activeRun()).orElse(null);
                if (active != null) {
                    return restated(caller, agent, threadId, stored, active.runId(), lost());
                }
                RunRecord last = stored.map(t -> t.meta().lastRun()).orElse(null);
                if (last != null && cursor.isPresent() && cursor.get().in(last.runId(), last.key())) {
                    return replay(last, cursor.get().seq()).chain(frames -> frames.isPresent()
                            ? Uni.createFrom().item(frames.get())
                            : restated(caller, agent, threadId, stored, input.runId(), null));
                }
                return restated(caller, agent, threadId, stored, input.runId(), null);
            });
        });
    }

    /**
     * Asks the replica that runs the caller's live run on the thread to stop it; with {@code runId}, only if that run
     * is the live one (a stop meant for a run that ended never stops the next).
     *
     * @return whether a run was live (and so asked); a failed Uni with {@link SessionRefused} when the thread is
     *         another agent's
     */
    public Uni<Boolean> stop(Caller caller, AgentDefinition agent, String threadId, Optional<String> runId) {
        return store.load(caller.thread(threadId)).chain(stored -> {
            ThreadSessions.checkAccess(caller, agent, threadId, stored);
            return claims.stop(caller, threadId, runId);
        });
    }

    /**
     * The frames of a connection that joins the caller's run {@code run}, which was live a moment ago: as for a connect
     * without a cursor (the join prelude, then the live events), or, should it have ended since, the prelude to its
     * end, from its log, which outlives it ({@code agui.run.events-ttl}).
     */
    Uni<Multi<byte[]>> join(Caller caller, AgentDefinition agent, RunLock run) {
        return store.load(run.thread()).chain(stored -> {
            ThreadSessions.checkAccess(caller, agent, run.threadId(), stored);
            return joined(caller, agent, stored, run);
        });
    }

    private Uni<Multi<byte[]>> live(Caller caller, AgentDefinition agent, Optional<StoredThread> stored, RunLock run,
                                    Optional<Cursor> cursor) {
        if (cursor.isPresent() && cursor.get().in(run.runId(), run.token())) {
            long after = cursor.get().seq();
            return logHolds(run, after).chain(holds -> holds
                    ? Uni.createFrom().item(tail(run, after))
                    : joined(caller, agent, stored, run));
        }
        return joined(caller, agent, stored, run);
    }

    /**
     * Whether the live run's log holds the event {@code seq} names: a cursor counts only then. The run's replica sends
     * each event before its append lands in the log (one append in flight at a time), so a client that left and
     * comes back at once may hold a cursor the log is about to hold: the answer waits for it, up to
     * {@code agui.store.timeout}. One beyond the log that long names an event that never comes, and one before what
     * the log keeps has lost what followed: both are unknown, as no cursor is.
     */
    private Uni<Boolean> logHolds(RunLock run, long seq) {
        return log.follow(run.token(), seq - 1).select().first().toUni()
                .map(first -> first.seq() == seq)
                .ifNoItem().after(storeConfig.timeout()).recoverWithItem(false);
    }

    /**
     * The join prelude of a live run, then its events from where the prelude left off. The run's log is read a page
     * at a time and projected on a worker thread, a few joins at a time ({@link #projections}): a log may hold
     * {@code agui.store.run-log.max-events} events, whose parsing would hold an event loop for seconds, and a burst
     * of joins projecting at once on every worker would leave the event loops a sliver of the CPU.
     */
    private Uni<Multi<byte[]>> joined(Caller caller, AgentDefinition agent, Optional<StoredThread> stored,
                                      RunLock run) {
        return view(caller, stored).chain(state -> projections.run(() -> projected(run, stored, state)))
                .map(projection -> {
                    List<AgUiEvent> prelude = new ArrayList<>(projection.prelude(run.threadId(), run.runId(),
                            agent.hasState()));
                    if (projection.terminal() != null) {
                        prelude.add(projection.terminal());
                        return Multi.createFrom().iterable(frames(prelude, null));
                    }
                    // RUN_STARTED, always entry 1, is in the prelude even before the log holds it
                    long after = Math.max(1, projection.lastSeq());
                    return Multi.createBy().concatenating().streams(
                            Multi.createFrom().iterable(frames(prelude, Cursor.id(run.runId(), run.token(), after))),
                            tail(run, after));
                });
    }

    /** The run's whole log projected over the thread as stored, on a worker thread. */
    private Uni<RunProjection> projected(RunLock run, Optional<StoredThread> stored, JsonNode state) {
        RunProjection projection = RunProjection.over(stored.map(StoredThread::messages).orElse(List.of()), state);
        return log.pages(run.token(), -1)
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .onItem().invoke(projection::apply)
                .onItem().ignoreAsUni()
                .replaceWith(projection);
    }

    /**
     * The events of a live run after {@code after}, to its terminal event, read from the run's log as fast as the
     * client takes them: a slow client only reads the log later. A run no replica holds any more (checked every
     * {@code agui.store.lock-ttl}) ends with what its log holds, or {@code RUN_ERROR run_lost}.
     */
    private Multi<byte[]> tail(RunLock run, long after) {
        RunFrames frames = new RunFrames(run.runId(), run.token());
        return followed(run, after)
                .onItem().transform(entry -> {
                    if (entry != LOST) {
                        return frames.frame(entry);
                    }
                    LOG.warnf("threadId=%s runId=%s: the run's replica no longer holds it, and its log has no end: "
                            + "the run was lost", run.threadId(), run.runId());
                    return SseFrames.frame(lost());
                })
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("threadId=%s runId=%s: following the run's log failed: %s", run.threadId(),
                            run.runId(), failure.toString());
                    return SseFrames.frame(new AgUiEvent.RunError(
                            "The server lost track of the run; reconnect to see where it is.", "store_unavailable",
                            null));
                });
    }

    /**
     * Whether the live run took the steered message {@code messageId} ({@code multitask: steer}): its log shows the
     * message in a {@code MESSAGES_SNAPSHOT} (which the run sends only once the message is kept) before its terminal
     * event. False when the run ended, or was lost, without it: the message then starts a run of its own.
     *
     * @return a failed Uni with {@link dev.aguistate.store.StoreUnavailable} when the log cannot be followed
     */
    Uni<Boolean> shows(RunLock run, String messageId) {
        return followed(run, 0) // after the log's base: the run's events
                .select().where(entry -> terminal(entry) || shows(entry, messageId))
                .toUni()
                .map(entry -> entry != null && !terminal(entry));
    }

    private static boolean shows(LoggedEvent entry, String messageId) {
        if (!RunFrames.is(entry, EventType.MESSAGES_SNAPSHOT)) {
            return false;
        }
        try {
            return AgUiJson.read(entry.json(), AgUiEvent.class) instanceof AgUiEvent.MessagesSnapshot snapshot
                    && snapshot.messages().stream().anyMatch(message -> message.id().equals(messageId));
        } catch (JsonProcessingException unreadable) {
            return false;
        }
    }

    /**
     * The entries of a live run's log after {@code after}, to its terminal event, or {@link #LOST} when no replica
     * holds the run any more (checked every {@code agui.store.lock-ttl}) and its log holds no end.
     */
    private Multi<LoggedEvent> followed(RunLock run, long after) {
        AtomicLong seen = new AtomicLong(after);
        Multi<LoggedEvent> logged = log.follow(run.token(), after);
        Multi<LoggedEvent> whenLost = Multi.createFrom().ticks().every(storeConfig.lockTtl())
                .onOverflow().drop()
                .onItem().transformToUniAndConcatenate(tick -> locks.claim(run.thread())
                        .onFailure().recoverWithItem(Optional.empty()))
                .select().where(claim -> claim.isEmpty() || !claim.get().token().equals(run.token()))
                .select().first()
                .onItem().transformToMultiAndConcatenate(gone -> Multi.createBy().concatenating().streams(
                        entries(run.token(), seen.get()), Multi.createFrom().item(LOST)));
        return Multi.createBy().merging().streams(logged, whenLost)
                .select().where(entry -> entry == LOST || seen.getAndAccumulate(entry.seq(), Math::max) < entry.seq())
                .onItem().transformToIterable(entry -> terminal(entry) ? List.of(entry, END) : List.of(entry))
                .select().first(entry -> entry != END);
    }

    /**
     * The rest of a run that ended, after the cursor, if its log still holds it whole: from the entry after the
     * cursor to the run's terminal event, which a first pass over the log's pages looks for.
     */
    private Uni<Optional<Multi<byte[]>>> replay(RunRecord run, long after) {
        return log.read(run.key(), after, 1).chain(next -> next.isEmpty() || next.get(0).seq() != after + 1
                ? Uni.createFrom().item(Optional.<Multi<byte[]>>empty())
                : log.pages(run.key(), after).collect().last().map(lastPage -> {
                    if (lastPage == null || !terminal(lastPage.get(lastPage.size() - 1))) {
                        return Optional.empty();
                    }
                    return Optional.of(entries(run.key(), after).map(new RunFrames(run.runId(), run.key())::frame));
                }));
    }

    /** The log's entries above {@code after}, read a page at a time as they are taken. */
    private Multi<LoggedEvent> entries(String key, long after) {
        return log.pages(key, after).onItem().transformToIterable(page -> page);
    }

    /**
     * The thread as kept, in a run of its own: {@code RUN_STARTED}, the messages, the state, then
     * {@code RUN_FINISHED}, or {@code end} when it is given. A thread the caller does not have (nobody started it, it
     * was deleted, it is another user's) is restated empty, under the id the client named: every event carries what
     * AG-UI requires of it, whatever is stored.
     */
    private Uni<Multi<byte[]>> restated(Caller caller, AgentDefinition agent, String threadId,
                                        Optional<StoredThread> stored, String runId, AgUiEvent end) {
        return view(caller, stored).map(state -> {
            List<AgUiEvent> events = new ArrayList<>();
            events.add(new AgUiEvent.RunStarted(threadId, runId, null, null));
            events.add(new AgUiEvent.MessagesSnapshot(stored.map(StoredThread::messages).orElse(List.<Message>of())));
            if (agent.hasState()) {
                events.add(new AgUiEvent.StateSnapshot(state));
            }
            events.add(end != null ? end : new AgUiEvent.RunFinished(threadId, runId, null, waitingFor(stored), null));
            return Multi.createFrom().iterable(frames(events, null));
        });
    }

    /**
     * What a restated thread waits for, as its run's outcome, the one its last run ended with: the interrupts it has
     * open, unless a {@code confirm_changes} call asks them (the client-tool form, whose calls carry the interrupts'
     * ids); then, or with none open, success naming the tool calls left for the client.
     */
    private static RunOutcome waitingFor(Optional<StoredThread> stored) {
        if (stored.isEmpty()) {
            return RunOutcome.SUCCESS;
        }
        List<String> pending = Message.openToolCalls(stored.get().messages());
        List<Interrupt> open = stored.get().meta().openInterrupts();
        return open.isEmpty() || open.stream().anyMatch(interrupt -> pending.contains(interrupt.id()))
                ? new RunOutcome.Success(pending) : new RunOutcome.Interrupted(open);
    }

    /** The state a client of the thread sees: the thread's own, with the user's and everyone's shared scopes. */
    private Uni<JsonNode> view(Caller caller, Optional<StoredThread> stored) {
        return Uni.combine().all().unis(store.loadScope(ScopedState.userScope(caller.owner())),
                        store.loadScope(caller.appScope()))
                .with((userScope, appScope) -> new StateLayers(
                        stored.map(StoredThread::state).orElseGet(JsonNodeFactory.instance::objectNode), userScope.state(), appScope.state()).merged());
    }

    private static AgUiEvent lost() {
        return new AgUiEvent.RunError("The run was lost with the server that ran it; what it completed before is "
                + "kept.", "run_lost", null);
    }

    /** Frames without a cursor, but the last, which carries {@code lastId} when it is given. */
    private static List<byte[]> frames(List<AgUiEvent> events, String lastId) {
        List<byte[]> frames = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            String id = i == events.size() - 1 ? lastId : null;
            frames.add(SseFrames.frame(id, events.get(i)));
        }
        return frames;
    }

    /** Whether a logged event ends its run. */
    private static boolean terminal(LoggedEvent entry) {
        return entry == LOST || RunFrames.endsRun(entry);
    }
}
