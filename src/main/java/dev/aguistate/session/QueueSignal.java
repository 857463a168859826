package dev.aguistate.session;

import dev.aguistate.store.ThreadKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the replicas tell each other about runs waiting for their thread ({@code multitask: enqueue}), on the channel
 * stop requests take ({@link dev.aguistate.store.StopSignals}): a stop request's key is a claim token (a UUID), and
 * these carry a prefix no token has. Fields are length-prefixed, since owners and thread ids may hold any character.
 * Delivery is at most once, as for stops: a waiting run also looks at its thread now and then (see {@link RunQueues}).
 */
sealed interface QueueSignal {

    String PREFIX = "queue:";

    /** The thread's claim was given back: the runs waiting for it may take it. */
    record Freed(ThreadKey thread) implements QueueSignal {
        @Override
        public String key() {
            return encode("freed", thread.owner(), thread.threadId());
        }
    }

    /** Stop the run {@code runId} that waits for the thread: it leaves the queue and ends cancelled. */
    record StopQueued(ThreadKey thread, String runId) implements QueueSignal {
        @Override
        public String key() {
            return encode("stop", thread.owner(), thread.threadId(), runId);
        }
    }

    /** How it travels. */
    String key();

    /** The signal a key carries; empty for a stop request's key (or anything else). */
    static Optional<QueueSignal> parse(String key) {
        if (!key.startsWith(PREFIX)) {
            return Optional.empty();
        }
        List<String> fields = new ArrayList<>();
        int at = PREFIX.length();
        while (at < key.length()) {
            int colon = key.indexOf(':', at);
            if (colon < 0) {
                return Optional.empty();
            }
            int length = Integer.parseInt(key, at, colon, 10);
            fields.add(key.substring(colon + 1, colon + 1 + length));
            at = colon + 1 + length;
        }
        if (fields.size() == 3 && fields.get(0).equals("freed")) {
            return Optional.of(new Freed(new ThreadKey(fields.get(1), fields.get(2))));
        }
        if (fields.size() == 4 && fields.get(0).equals("stop")) {
            return Optional.of(new StopQueued(new ThreadKey(fields.get(1), fields.get(2)), fields.get(3)));
        }
        return Optional.empty();
    }

    private static String encode(String... fields) {
        StringBuilder key = new StringBuilder(PREFIX);
        for (String field : fields) {
            key.append(field.length()).append(':').append(field);
        }
        return key.toString();
    }
}
