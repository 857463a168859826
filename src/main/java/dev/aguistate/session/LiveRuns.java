package dev.aguistate.session;

import io.opentelemetry.context.Context;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.OnDisconnect;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.run.AgentRunner;
import dev.aguistate.run.RunConfig;
import dev.aguistate.run.RunRejected;
import dev.aguistate.run.StopSwitch;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.StopSignals;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The runs going on on this replica ({@link LiveRun}), by the key of their claim: where a stop request, sent to
 * every replica, finds the run it names. Each run is bounded by {@code agui.run.max-duration}.
 */
@ApplicationScoped
public class LiveRuns {

    private static final Logger LOG = Logger.getLogger(LiveRuns.class);

    private final Map<String, LiveRun> running = new ConcurrentHashMap<>();
    private final AgentRunner runner;
    private final ThreadSessions sessions;
    private final RunEventLog log;
    private final StopSignals stops;
    private final RunConfig config;
    private final Vertx vertx;

    LiveRuns(AgentRunner runner, ThreadSessions sessions, RunEventLog log, StopSignals stops, RunConfig config,
             Vertx vertx) {
        this.runner = runner;
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
     * Starts the run of a claimed thread. It goes on whatever its client does (within {@code onDisconnect}); the
     * returned frames are what its starting connection gets, and subscribing to them starts the run.
     *
     * @param requested the request's own {@code onDisconnect}, if it named one
     * @param traceParent the trace the run joins (the request's)
     * @throws RunRejected (before anything starts) when the client's state is not acceptable; the thread is released
     */
    public Multi<byte[]> start(AgentDefinition agent, ThreadSession session, OnDisconnect requested,
                               Context traceParent) {
        OnDisconnect onDisconnect = requested != null ? requested
                : agent.onDisconnect() != null ? agent.onDisconnect() : config.onDisconnect();
        LiveRun live = new LiveRun(session, log, onDisconnect, this::ended);
        Multi<AgUiEvent> events;
        try {
            events = runner.run(agent, session.start(), live.stopSwitch(), traceParent);
        } catch (RunRejected rejected) {
            sessions.release(session).subscribe().with(v -> { });
            throw rejected;
        }
        return live.attachStarter(FollowWindow.of(config), () -> {
            running.put(live.key(), live);
            long limit = vertx.setTimer(config.maxDuration().toMillis(),
                    timer -> live.stop(StopSwitch.Reason.TIME_LIMIT));
            live.start(events.onTermination().invoke(() -> vertx.cancelTimer(limit)));
        });
    }

    /** All the run's events are in its log: the thread is free again, and the log expires in due time. */
    private void ended(LiveRun run) {
        running.remove(run.key());
        sessions.release(run.session()).subscribe().with(released -> { });
        log.expireAfter(run.key(), config.eventsTtl()).subscribe().with(done -> { }, failure -> LOG.warnf(
                "threadId=%s runId=%s: setting the expiry of the run's log failed: %s", run.threadId(), run.runId(),
                failure.toString()));
    }
}
