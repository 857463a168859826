package dev.aguistate.session;

import io.opentelemetry.context.Context;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.Multitask;
import dev.aguistate.agent.OnDisconnect;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.SseFrames;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.run.AgentRunner;
import dev.aguistate.run.RunConfig;
import dev.aguistate.run.RunOptions;
import dev.aguistate.run.RunRejected;
import dev.aguistate.run.StopSwitch;
import dev.aguistate.store.OutageLog;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.RunLock;
import dev.aguistate.store.ThreadSignal;
import dev.aguistate.store.ThreadSignals;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.webhooks.RunEnded;
import dev.aguistate.webhooks.Webhooks;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The one way into a run, from any route ({@link #open}), and the runs going on on this replica ({@link LiveRun}), by
 * the key of their claim: where a stop request, sent to every replica, finds the run it names. Each run is bounded by
 * {@code agui.run.max-duration}.
 */
@ApplicationScoped
@Startup
public class LiveRuns {

    private static final Logger LOG = Logger.getLogger(LiveRuns.class);
    private static final OutageLog EXPIRIES = new OutageLog(LOG, "setting ended runs' logs to expire",
            "a log not set goes agui.store.run-log.idle-ttl after its latest event");

    private final Map<String, LiveRun> running = new ConcurrentHashMap<>();
    private final AgentRunner runner;
    private final RunAdmission admission;
    private final ThreadSessions sessions;
    private final RunClaims claims;
    private final RunQueues queues;
    private final RunSteering steering;
    private final RunConnections connections;
    private final RunEventLog log;
    private final ThreadSignals signals;
    private final RunConfig config;
    private final Webhooks webhooks;
    private final Vertx vertx;

    LiveRuns(AgentRunner runner, RunAdmission admission, ThreadSessions sessions, RunClaims claims, RunQueues queues,
             RunSteering steering, RunConnections connections, RunEventLog log, ThreadSignals signals,
             RunConfig config, Webhooks webhooks, Vertx vertx, MeterRegistry meters) {
        this.runner = runner;
        this.admission = admission;
        this.sessions = sessions;
        this.claims = claims;
        this.queues = queues;
        this.steering = steering;
        this.connections = connections;
        this.log = log;
        this.signals = signals;
        this.config = config;
        this.webhooks = webhooks;
        this.vertx = vertx;
        meters.gauge("agui.runs.steered.waiting", running,
                runs -> runs.values().stream().mapToInt(run -> run.inbox().size()).sum());
    }

    void listen(@Observes StartupEvent started) {
        signals.listen(signal -> {
            if (signal instanceof ThreadSignal.Stop stop) {
                Optional.ofNullable(running.get(stop.runKey())).ifPresent(run -> {
                    LOG.infof("threadId=%s runId=%s: stopping the run, as asked", run.threadId(), run.runId());
                    run.stop(StopSwitch.Reason.REQUESTED);
                });
            } else if (signal instanceof ThreadSignal.Steer steer) {
                Optional.ofNullable(running.get(steer.runKey())).ifPresent(run -> steering.message(steer.messageKey())
                        .subscribe().with(message -> message.ifPresent(run.inbox()::offer), failure -> LOG.warnf(
                                "threadId=%s runId=%s: the steered message could not be read (%s); its sender starts "
                                        + "a run with it", run.threadId(), run.runId(), failure.toString())));
            }
        });
    }

    /**
     * A run of {@code agent} on the caller's thread, whatever the route: it is let in ({@link RunAdmission}: the
     * bounds on runs going on, the rate limit), the thread is claimed ({@link ThreadSessions}), the run made, and
     * what it held is given back if it is refused; nothing else is held. The run goes on whatever its client does
     * (within its {@code onDisconnect}); the returned frames are what its starting connection gets, and subscribing
     * to them starts it. What a busy thread does is the request's, else the agent's, else the server's
     * {@link Multitask}: {@code reject} refuses after {@code agui.store.lock-wait}; {@code interrupt} stops the live
     * run and waits until it has let go of the thread; {@code enqueue} answers at once with frames that begin when the
     * thread is free ({@link RunQueues}); {@code steer} leaves its message for the live run and joins that run's
     * stream, or is enqueued when the run ends without taking it ({@link RunSteering}). A waiting request holds its
     * place among the runs let in.
     *
     * @param traceParent the trace the run joins (the request's)
     * @return a failed Uni, with nothing started or held, with {@link SessionRefused} (too many runs, the thread is
     *         busy or another agent's, its messages cannot continue it, too many wait for it), {@link RunRejected}
     *         (the client's state is not acceptable), or the store's failure
     */
    public Uni<Multi<byte[]>> open(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                                   Context traceParent) {
        try {
            admission.admit(caller);
        } catch (SessionRefused refused) {
            return Uni.createFrom().failure(refused);
        }
        OnDisconnect onDisconnect = options.onDisconnect() != null ? options.onDisconnect()
                : agent.onDisconnect() != null ? agent.onDisconnect() : config.onDisconnect();
        Multitask multitask = options.multitask() != null ? options.multitask()
                : agent.multitask() != null ? agent.multitask() : config.multitask();
        Uni<Multi<byte[]>> opened = switch (multitask) {
            case REJECT -> sessions.open(caller, agent, input, options)
                    .chain(session -> started(agent, session, onDisconnect, traceParent));
            case INTERRUPT -> sessions.checked(caller, agent, input)
                    .chain(() -> claims.stopAndAwait(caller, input.threadId()))
                    .chain(() -> sessions.open(caller, agent, input, options))
                    .chain(session -> started(agent, session, onDisconnect, traceParent));
            case ROLLBACK -> sessions.checked(caller, agent, input)
                    .chain(() -> foundBy(caller, input.threadId()))
                    .call(stopped -> claims.stopAndAwait(caller, input.threadId()))
                    .chain(stopped -> stopped.isEmpty() ? sessions.open(caller, agent, input, options)
                            : sessions.openRolledBack(caller, agent, input, options, stopped.get()))
                    .chain(session -> started(agent, session, onDisconnect, traceParent));
            case ENQUEUE -> sessions.checked(caller, agent, input)
                    .chain(() -> enqueued(caller, agent, input, options, onDisconnect, traceParent));
            case STEER -> sessions.checked(caller, agent, input)
                    .chain(() -> steering(caller, agent, input, options, onDisconnect, traceParent));
        };
        return opened.onFailure().invoke(refused -> admission.left(caller));
    }

    /**
     * The run now if the thread is free and nobody waits for it here, else once its turn comes ({@link RunQueues}).
     */
    private Uni<Multi<byte[]>> enqueued(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                                        OnDisconnect onDisconnect, Context traceParent) {
        ThreadKey thread = caller.thread(input.threadId());
        // behind the requests that wait here already, or it would overtake them
        return (queues.hasWaiting(thread) ? Uni.createFrom().item(Optional.<RunLock>empty())
                : sessions.tryClaim(thread, input.runId()))
                .chain(claim -> claim.isPresent()
                        ? sessions.claimed(caller, agent, input, options, claim.get())
                                .chain(session -> started(agent, session, onDisconnect, traceParent))
                        : queues.join(thread, input.runId(), onDisconnect,
                                turn -> turn(caller, agent, input, options, onDisconnect, traceParent, turn),
                                () -> admission.left(caller))
                                .map(queued -> queued.stream(() -> queues.left(queued))));
    }

    /**
     * A request that steers its user message into the caller's live run on the thread, on whichever replica; with no
     * run live, or no user message to steer, it is enqueued.
     */
    private Uni<Multi<byte[]>> steering(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                                        OnDisconnect onDisconnect, Context traceParent) {
        Optional<Message.User> message = RunSteering.steered(input);
        if (message.isEmpty()) {
            return enqueued(caller, agent, input, options, onDisconnect, traceParent);
        }
        return claims.of(caller, input.threadId()).chain(live -> live.isEmpty()
                ? enqueued(caller, agent, input, options, onDisconnect, traceParent)
                : Uni.createFrom().item(steered(caller, agent, input, options, onDisconnect, traceParent, live.get(),
                        message.get())));
    }

    /**
     * A request that steers {@code message} into the {@code live} run ({@link RunSteering}). Its stream opens at once
     * with a comment; once the run took the message, it joins the run as a connect does (the run's events so far,
     * then the live ones, which answer with the message in mind), and the request's place among the runs let in is
     * given back. A run that ended without taking it leaves the request to start a run of its own, as
     * {@code enqueue} would (it waits for the thread the run still holds while its end is kept).
     */
    private Multi<byte[]> steered(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                                  OnDisconnect onDisconnect, Context traceParent, RunLock live, Message.User message) {
        Uni<Multi<byte[]>> frames = steering.steer(live, message).chain(taken -> {
            if (!taken) {
                LOG.infof("threadId=%s runId=%s: the run %s ended before its next round; the steered message starts "
                        + "a run of its own", input.threadId(), input.runId(), live.runId());
                return enqueued(caller, agent, input, options, onDisconnect, traceParent);
            }
            LOG.infof("threadId=%s runId=%s: the steered message joined the run %s", input.threadId(), input.runId(),
                    live.runId());
            return connections.join(caller, agent, live).invoke(() -> admission.left(caller));
        }).onFailure().recoverWithItem(failure -> refusedTurn(caller, input, failure).frames());
        AtomicBoolean handedOver = new AtomicBoolean();
        return Multi.createBy().concatenating().streams(Multi.createFrom().item(SseFrames.keepAlive()),
                frames.invoke(() -> handedOver.set(true))
                        .onCancellation().invoke(() -> {
                            if (!handedOver.get()) { // the client left before: the place is given back here
                                admission.left(caller);
                            }
                        })
                        .toMulti().onItem().transformToMultiAndConcatenate(stream -> stream));
    }

    /**
     * The thread as the caller's live run found it, read from the base entry of its log, on whichever replica it
     * runs; empty when no run is live, or its log lost its base (a run then is stopped and not rolled back).
     */
    private Uni<Optional<RunBefore>> foundBy(Caller caller, String threadId) {
        return claims.of(caller, threadId).chain(live -> live.isEmpty() ? Uni.createFrom().item(Optional.empty())
                : log.read(live.get().token(), -1, 1).map(RunBefore::from).invoke(before -> {
                    if (before.isEmpty()) {
                        LOG.warnf("threadId=%s runId=%s: the run's log no longer holds the thread it found; it is "
                                + "stopped but not rolled back", threadId, live.get().runId());
                    }
                }));
    }

    /** The frames of a run whose session is open; a run that refuses to start gives its thread back. */
    private Uni<Multi<byte[]>> started(AgentDefinition agent, ThreadSession session, OnDisconnect onDisconnect,
                                       Context traceParent) {
        try {
            return Uni.createFrom().item(start(agent, session, onDisconnect, traceParent));
        } catch (RunRejected rejected) {
            return release(session).chain(released -> Uni.createFrom().failure(rejected));
        }
    }

    /**
     * A waiting request's turn: it holds its thread's {@code claim}. Its stream is open, so what would have been a
     * 4xx before it is now a {@code RUN_ERROR} after its {@code RUN_STARTED}, with the place and the thread given back.
     */
    private Uni<QueuedRun.Turn> turn(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                                     OnDisconnect onDisconnect, Context traceParent, RunLock claim) {
        return sessions.claimed(caller, agent, input, options, claim).chain(session -> {
            Multi<byte[]> frames;
            try {
                frames = start(agent, session, onDisconnect, traceParent);
            } catch (RunRejected rejected) {
                return release(session).map(released -> refusedTurn(caller, input, rejected.code(),
                        rejected.getMessage()));
            }
            return Uni.createFrom().item(new QueuedRun.Turn(frames, onDisconnect == OnDisconnect.CONTINUE
                    ? () -> frames.subscribe().with(frame -> { }, failure -> { }) // the run goes on, unread
                    : () -> release(session).subscribe().with(released -> admission.left(caller))));
        }).onFailure().recoverWithItem(failure -> {
            queues.announceFreed(claim.thread()).subscribe().with(done -> { }, ignored -> { });
            return refusedTurn(caller, input, failure);
        });
    }

    /** The turn of a request whose stream is open but whose run cannot start: refused, or the store's failure. */
    private QueuedRun.Turn refusedTurn(Caller caller, RunAgentInput input, Throwable failure) {
        return failure instanceof SessionRefused refused
                ? refusedTurn(caller, input, "run_refused", refused.getMessage())
                : refusedTurn(caller, input, "store_unavailable",
                        "The thread store is unavailable; the run did not start. Retry shortly.");
    }

    private QueuedRun.Turn refusedTurn(Caller caller, RunAgentInput input, String code, String message) {
        LOG.infof("threadId=%s runId=%s: the waiting run did not start: %s", input.threadId(), input.runId(), message);
        admission.left(caller);
        return QueuedRun.Turn.ended(input.threadId(), input.runId(), new AgUiEvent.RunError(message, code));
    }

    /** @throws RunRejected (before anything starts) when the client's state is not acceptable */
    private Multi<byte[]> start(AgentDefinition agent, ThreadSession session, OnDisconnect onDisconnect,
                                Context traceParent) {
        LiveRun live = new LiveRun(session, log, onDisconnect, run -> ended(run, agent));
        Multi<AgUiEvent> events = runner.run(agent, session.start(), live.stopSwitch(), live.inbox(), traceParent);
        return live.attachStarter(FollowWindow.of(config), () -> {
            running.put(live.key(), live);
            long limit = vertx.setTimer(config.maxDuration().toMillis(),
                    timer -> live.stop(StopSwitch.Reason.TIME_LIMIT));
            live.start(events.onTermination().invoke(() -> vertx.cancelTimer(limit)));
        });
    }

    /** Gives the thread back, then tells the runs waiting for it, on every replica. */
    private Uni<Void> release(ThreadSession session) {
        return sessions.release(session).call(() -> queues.announceFreed(session.lock().thread())
                .onFailure().recoverWithNull());
    }

    /**
     * All the run's events are in its log: its place and the thread are free again, its outcome goes to its webhooks
     * (this replica is the one that ran it, so the only one to send it), the log expires in due time.
     */
    private void ended(LiveRun run, AgentDefinition agent) {
        running.remove(run.key());
        Caller owner = run.session().owner();
        admission.left(owner);
        release(run.session()).subscribe().with(released -> { });
        if (run.terminal() != null) {
            webhooks.runEnded(agent.webhooks(), RunEnded.of(run.threadId(), run.runId(), agent.name(), owner.user(),
                    owner.tenant(), run.terminal(), run.startedAt(), run.endedAt()));
        }
        log.expireAfter(run.key(), config.eventsTtl()).subscribe().with(done -> EXPIRIES.succeeded(),
                failure -> EXPIRIES.failed("threadId=" + run.threadId() + " runId=" + run.runId(), failure));
    }
}
