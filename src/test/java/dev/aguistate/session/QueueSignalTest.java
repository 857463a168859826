package dev.aguistate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.store.ThreadKey;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The signals about waiting runs travel on the stop channel; they come back as sent, and a stop key is none. */
class QueueSignalTest {

    private static final ThreadKey AWKWARD = new ThreadKey("tenant:9:alice 12:", "thread:7:x");

    @Test
    void aSignalComesBackAsSentWhateverItsOwnerAndThreadHold() {
        QueueSignal freed = new QueueSignal.Freed(AWKWARD);
        QueueSignal stop = new QueueSignal.StopQueued(AWKWARD, "run:1");

        assertEquals(Optional.of(freed), QueueSignal.parse(freed.key()));
        assertEquals(Optional.of(stop), QueueSignal.parse(stop.key()));
    }

    @Test
    void aStopRequestsKeyIsNoQueueSignal() {
        assertEquals(Optional.empty(), QueueSignal.parse(UUID.randomUUID().toString()));
    }
}
