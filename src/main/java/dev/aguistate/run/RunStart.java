package dev.aguistate.run;

import dev.aguistate.run.request.PriorSummary;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.state.StateLayers;
import dev.aguistate.tools.CallerCredential;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a run starts from: the request and its options, what the server stored of its thread, and the conversation
 * the request's messages make of it.
 *
 * @param storedState   the stored thread state and the user's and everyone's shared scopes (empty layers for a new
 *                      thread); the client's state is laid over it
 * @param storedHistory the stored messages, or an empty list
 * @param conversation  the request's messages reconciled with the stored ones
 * @param messageTimes  when each stored message (by id) first reached the server
 * @param interrupts    what the thread waits for (human confirmation)
 * @param summary       the thread's summary of its earlier conversation, or null
 * @param credential    what the request's caller proved themselves with, for tools that act as them; null for an
 *                      anonymous caller. Never stored or logged
 */
public record RunStart(RunAgentInput input, RunOptions options, StateLayers storedState, List<Message> storedHistory,
                       Conversation conversation, Map<String, Instant> messageTimes, ThreadInterrupts interrupts,
                       RunJournal journal, PriorSummary summary, CallerCredential credential) {

    public RunStart {
        storedHistory = List.copyOf(storedHistory);
        messageTimes = Map.copyOf(messageTimes);
    }
}
