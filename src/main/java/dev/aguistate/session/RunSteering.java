package dev.aguistate.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.run.RunConfig;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.RunLock;
import dev.aguistate.store.ThreadSignal;
import dev.aguistate.store.ThreadSignals;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * A user message steered into a thread's live run ({@code multitask: steer}), on whichever replica runs it. The
 * message is kept in the run event log under a key of its own (entry 0, expiring with {@code agui.run.events-ttl}),
 * and the run's replica is sent only that key ({@link ThreadSignal.Steer}: a message may be larger than a signal may
 * be). The run takes it at its next round boundary ({@link dev.aguistate.run.RunInbox}); whether it did, the sender
 * reads from the run's own log ({@link RunConnections#shows}), never from a reply, so that a signal that is missed,
 * or arrives after the run's last round, leaves the message with its sender, which then starts a run with it.
 */
@ApplicationScoped
@Startup
class RunSteering {

    private static final Logger LOG = Logger.getLogger(RunSteering.class);

    private final RunEventLog log;
    private final ThreadSignals signals;
    private final RunConnections connections;
    private final RunConfig config;

    RunSteering(RunEventLog log, ThreadSignals signals, RunConnections connections, RunConfig config) {
        this.log = log;
        this.signals = signals;
        this.connections = connections;
        this.config = config;
    }

    /** The message a request steers: its last, when that is a user message; else it has none to steer. */
    static Optional<Message.User> steered(RunAgentInput input) {
        List<Message> messages = input.messages();
        return messages.isEmpty() || !(messages.get(messages.size() - 1) instanceof Message.User user)
                ? Optional.empty() : Optional.of(user);
    }

    /**
     * Leaves the message for the live run and waits until the run took it (true) or ended, or was lost, without it
     * (false).
     *
     * @return a failed Uni with the store's failure when the message could not be left, or the run's log followed
     */
    Uni<Boolean> steer(RunLock live, Message.User message) {
        String key = "steer:" + UUID.randomUUID();
        return log.append(key, List.of(new LoggedEvent(0, AgUiJson.write(message))))
                .call(() -> log.expireAfter(key, config.eventsTtl()))
                .call(() -> signals.send(new ThreadSignal.Steer(live.token(), key)))
                .chain(() -> connections.shows(live, message.id()));
    }

    /** The message kept under {@code key}; empty once it expired. */
    Uni<Optional<Message.User>> message(String key) {
        return log.read(key, -1, 1).map(entries -> entries.stream().findFirst().flatMap(entry -> {
            try {
                return AgUiJson.read(entry.json(), Message.class) instanceof Message.User user ? Optional.of(user)
                        : Optional.empty();
            } catch (JsonProcessingException unreadable) {
                LOG.errorf("the steered message under %s cannot be read: %s", key, unreadable.getMessage());
                return Optional.empty();
            }
        }));
    }
}
