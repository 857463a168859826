package dev.aguistate.session;

import io.opentelemetry.context.Context;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.OnDisconnect;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.run.AgentRunner;
import dev.aguistate.run.RunConfig;
import dev.aguistate.run.RunOptions;
import dev.aguistate.run.RunRejected;
import dev.aguistate.run.StopSwitch;
import dev.aguistate.store.OutageLog;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.StopSignals;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
    private final RunEventLog log;
    private final StopSignals stops;
    private final RunConfig config;
    private final Vertx vertx;

    LiveRuns(AgentRunner runner, RunAdmission admission, ThreadSessions sessions, RunEventLog log, StopSignals stops,
             RunConfig config, Vertx vertx) {
        this.runner = runner;
        this.admission = admission;
        this.sessions = sessions;
        this.log = log;
        this.stops = stops;
        this.config = config;
        this.vertx = vertx;
    }

    void listen(@Observes StartupEvent started) {
        stops.listen(key -> {
            LiveRun run = running.get(key);
            if (run != null) {
                LOG.infof("threadId=%s runId=%s: stopping the run, as asked", run.threadId(), run.runId());
                run.stop(StopSwitch.Reason.REQUESTED);
            }
        });
    }

    /**
     * A run of {@code agent} on the caller's thread, whatever the route: it is let in ({@link RunAdmission}: the
     * bounds on runs going on, the rate limit), the thread is claimed ({@link ThreadSessions}), the run made, and
     * what it held is given back if it is refused; nothing else is held. The run goes on whatever its client does
     * (within its {@code onDisconnect}); the returned frames are what its starting connection gets, and subscribing
     * to them starts it. What a busy thread does (today: the claim waits {@code agui.store.lock-wait}, then refuses)
     * is decided here, by the request's {@link RunOptions}.
     *
     * @param traceParent the trace the run joins (the request's)
     * @return a failed Uni, with nothing started or held, with {@link SessionRefused} (too many runs, the thread is
     *         busy or another agent's, its messages cannot continue it), {@link RunRejected} (the client's state is
     *         not acceptable), or the store's failure
     */
    public Uni<Multi<byte[]>> open(Caller caller, AgentDefinition agent, RunAgentInput input, RunOptions options,
                                   Context traceParent) {
        try {
            admission.admit(caller);
        } catch (SessionRefused refused) {
            return Uni.createFrom().failure(refused);
        }
        return sessions.open(caller, agent, input, options).chain(session -> {
            try {
                return Uni.createFrom().item(start(agent, session, options, traceParent));
            } catch (RunRejected rejected) {
                return sessions.release(session).chain(released -> Uni.createFrom().<Multi<byte[]>>failure(rejected));
            }
        }).onFailure().invoke(refused -> admission.left(caller));
    }

    /** @throws RunRejected (before anything starts) when the client's state is not acceptable */
    private Multi<byte[]> start(AgentDefinition agent, ThreadSession session, RunOptions options,
                                Context traceParent) {
        OnDisconnect onDisconnect = options.onDisconnect() != null ? options.onDisconnect()
                : agent.onDisconnect() != null ? agent.onDisconnect() : config.onDisconnect();
        LiveRun live = new LiveRun(session, log, onDisconnect, this::ended);
        Multi<AgUiEvent> events = runner.run(agent, session.start(), live.stopSwitch(), traceParent);
        return live.attachStarter(FollowWindow.of(config), () -> {
            running.put(live.key(), live);
            long limit = vertx.setTimer(config.maxDuration().toMillis(),
                    timer -> live.stop(StopSwitch.Reason.TIME_LIMIT));
            live.start(events.onTermination().invoke(() -> vertx.cancelTimer(limit)));
        });
    }

    /** All the run's events are in its log: its place and the thread are free again, the log expires in due time. */
    private void ended(LiveRun run) {
        running.remove(run.key());
        admission.left(run.session().owner());
        sessions.release(run.session()).subscribe().with(released -> { });
        log.expireAfter(run.key(), config.eventsTtl()).subscribe().with(done -> EXPIRIES.succeeded(),
                failure -> EXPIRIES.failed("threadId=" + run.threadId() + " runId=" + run.runId(), failure));
    }
}
