package dev.aguistate.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.aguistate.llm.ModelFailure;
import dev.aguistate.protocol.AgUiEvent;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class TerminalEventsTest {

    private final TerminalEvents ending = new TerminalEvents("t", "r", "test");

    @Test
    void aModelFailureEndsWithItsStableCodeAndNoUpstreamDetail() {
        AgUiEvent.RunError error = (AgUiEvent.RunError) ending.failed(
                new ModelFailure(ModelFailure.Kind.RATE_LIMITED, new IOException("secret upstream body")));

        assertEquals("llm_rate_limited", error.code());
        assertFalse(error.message().contains("secret"));
    }

    @Test
    void aRunFailureEndsWithItsOwnCode() {
        AgUiEvent.RunError error = (AgUiEvent.RunError) ending.failed(RunFailure.maxRounds(3));

        assertEquals("max_rounds_exceeded", error.code());
    }

    @Test
    void anythingElseIsAnInternalErrorWithoutItsMessage() {
        AgUiEvent.RunError error = (AgUiEvent.RunError) ending.failed(new IllegalStateException("a bug at line 12"));

        assertEquals("internal_error", error.code());
        assertFalse(error.message().contains("line 12"));
    }
}
