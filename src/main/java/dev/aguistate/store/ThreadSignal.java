package dev.aguistate.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the replicas tell each other about a thread's runs ({@link ThreadSignals}): the closed set of signals, each
 * with the text it travels as. Fields are length-prefixed, since owners and thread ids may hold any character, and a
 * signal stays small (a steered message travels by the key it is kept under, never itself: PostgreSQL's
 * {@code NOTIFY} takes at most 8000 bytes).
 */
public sealed interface ThreadSignal {

    /** Stop the live run whose claim key is {@code runKey}, on whichever replica runs it. */
    record Stop(String runKey) implements ThreadSignal {
        @Override
        public String wire() {
            return encode("stop", runKey);
        }
    }

    /** The thread's claim was given back: the runs waiting for it ({@code multitask: enqueue}) may take it. */
    record Freed(ThreadKey thread) implements ThreadSignal {
        @Override
        public String wire() {
            return encode("freed", thread.owner(), thread.threadId());
        }
    }

    /** Stop the run {@code runId} that waits for the thread: it leaves the queue and ends cancelled. */
    record StopQueued(ThreadKey thread, String runId) implements ThreadSignal {
        @Override
        public String wire() {
            return encode("stop-queued", thread.owner(), thread.threadId(), runId);
        }
    }

    /**
     * A user message for the live run whose claim key is {@code runKey} ({@code multitask: steer}), kept in the
     * {@link RunEventLog} under {@code messageKey} (entry 0), where the run's replica reads it.
     */
    record Steer(String runKey, String messageKey) implements ThreadSignal {
        @Override
        public String wire() {
            return encode("steer", runKey, messageKey);
        }
    }

    /** How it travels. */
    String wire();

    /** The signal a text carries; empty for anything else. */
    static Optional<ThreadSignal> parse(String wire) {
        List<String> fields = new ArrayList<>();
        int at = 0;
        while (at < wire.length()) {
            int colon = wire.indexOf(':', at);
            if (colon < 0) {
                return Optional.empty();
            }
            int length;
            try {
                length = Integer.parseInt(wire, at, colon, 10);
            } catch (NumberFormatException notOurs) {
                return Optional.empty();
            }
            if (length < 0 || colon + 1 + length > wire.length()) {
                return Optional.empty();
            }
            fields.add(wire.substring(colon + 1, colon + 1 + length));
            at = colon + 1 + length;
        }
        if (fields.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(switch (fields.get(0) + "/" + fields.size()) {
            case "stop/2" -> new Stop(fields.get(1));
            case "freed/3" -> new Freed(new ThreadKey(fields.get(1), fields.get(2)));
            case "stop-queued/4" -> new StopQueued(new ThreadKey(fields.get(1), fields.get(2)), fields.get(3));
            case "steer/3" -> new Steer(fields.get(1), fields.get(2));
            default -> null;
        });
    }

    private static String encode(String... fields) {
        StringBuilder wire = new StringBuilder();
        for (String field : fields) {
            wire.append(field.length()).append(':').append(field);
        }
        return wire.toString();
    }
}
