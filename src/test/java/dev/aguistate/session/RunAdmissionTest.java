package dev.aguistate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The bounds on runs going on, per user and per process, and who they apply to. */
@Execution(ExecutionMode.CONCURRENT)
class RunAdmissionTest {

    private final RunAdmission admission = new RunAdmission(3, 1,
            Optional.of(new StartRate(3, Duration.ofHours(1), System::nanoTime)));

    @Test
    void aUserHoldsTheirPlacesUntilTheirRunsLeave() {
        Caller alice = new Caller("alice", null);
        admission.admit(alice);

        assertEquals(SessionRefused.Reason.TOO_MANY_RUNS, refusal(alice));
        admission.admit(new Caller("alice", "another tenant"));
        admission.left(alice);
        admission.admit(alice);
        assertEquals(SessionRefused.Reason.RATE_LIMITED, refusal(alice), "three asks an hour, the refused one too");
    }

    @Test
    void everyoneOnAServerThatIdentifiesNobodyIsBoundOnlyByTheServer() {
        for (int i = 0; i < 3; i++) {
            admission.admit(Caller.ANONYMOUS);
        }

        assertEquals(SessionRefused.Reason.SERVER_AT_RUN_LIMIT, refusal(Caller.ANONYMOUS));
    }

    private SessionRefused.Reason refusal(Caller caller) {
        return assertThrows(SessionRefused.class, () -> admission.admit(caller)).reason();
    }
}
