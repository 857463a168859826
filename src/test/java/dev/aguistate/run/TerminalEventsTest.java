package dev.aguistate.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.aguistate.llm.ModelFailure;
import dev.aguistate.protocol.AgUiEvent;
import dev.langchain4j.exception.HttpException;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
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
    void theLogNamesAnUpstreamFailuresStatusButNeverItsBody() {
        ModelFailure failure = new ModelFailure(ModelFailure.Kind.RATE_LIMITED,
                new RuntimeException(new HttpException(429, "{\"error\":\"secret upstream body\"}")));

        assertEquals("HTTP 429", TerminalEvents.cause(failure));
        assertEquals("IOException", TerminalEvents.cause(
                new ModelFailure(ModelFailure.Kind.CONNECTION_LOST, new IOException("body text"))));
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
