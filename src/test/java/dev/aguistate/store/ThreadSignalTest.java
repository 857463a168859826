package dev.aguistate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Each signal comes back from the text it travels as; a text that is no signal is told apart. */
@Execution(ExecutionMode.CONCURRENT)
class ThreadSignalTest {

    private static final ThreadKey AWKWARD = new ThreadKey("tenant:9:alice 12:", "thread:7:x");

    @Test
    void aSignalComesBackAsSentWhateverItsOwnerAndThreadHold() {
        for (ThreadSignal signal : new ThreadSignal[] {new ThreadSignal.Stop(UUID.randomUUID().toString()),
                new ThreadSignal.Freed(AWKWARD), new ThreadSignal.StopQueued(AWKWARD, "run:1"),
                new ThreadSignal.Steer("3:key", "12:steer:m:1")}) {
            assertEquals(Optional.of(signal), ThreadSignal.parse(signal.wire()));
        }
    }

    @Test
    void aTextThatIsNoSignalIsNone() {
        assertEquals(Optional.empty(), ThreadSignal.parse(UUID.randomUUID().toString()));
        assertEquals(Optional.empty(), ThreadSignal.parse("5:freed3:a"));
        assertEquals(Optional.empty(), ThreadSignal.parse("9:unheard-of1:x"));
        assertEquals(Optional.empty(), ThreadSignal.parse(""));
    }
}
