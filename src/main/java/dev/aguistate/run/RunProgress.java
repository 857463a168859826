package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.Message;
import java.util.List;

/**
 * What a run has completed at one point.
 *
 * @param state      the authoritative state (null when the agent keeps no state: the stored state stays as it is)
 * @param messages   the complete conversation: the history the run started from plus what it added
 * @param interrupts what the thread waits for
 */
public record RunProgress(JsonNode state, List<Message> messages, ThreadInterrupts interrupts) {

    public RunProgress {
        messages = List.copyOf(messages);
    }
}
