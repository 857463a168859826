package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.Message;
import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * Where a run's outcome is kept: the thread store. The run calls {@link #commit} once,
 * after its last event and before {@code RUN_FINISHED}; if the commit fails the run ends with {@code RUN_ERROR}
 * instead, and nothing of it was kept.
 */
public interface RunJournal {

    /**
     * @param state      the authoritative state at the end of the run (null when the agent keeps no state: the
     *                   stored state stays as it is)
     * @param messages   the complete conversation: the history the run started from plus what it added
     * @param interrupts what the thread waits for after the run
     */
    Uni<Void> commit(JsonNode state, List<Message> messages, ThreadInterrupts interrupts);
}
