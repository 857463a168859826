package dev.aguistate.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.aguistate.protocol.Interrupt;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the server remembers of a thread besides its state and messages. Clients never get it as it is.
 *
 * @param messageTimes       when each message, by id, first reached the server: the context window's age limit
 *                           reads it, because AG-UI messages carry no time of their own
 * @param openInterrupts     what the thread waits for: its next run must answer these (human confirmation)
 * @param resolvedInterrupts the ids of the latest answered interrupts, newest last, so that a repeated resume is
 *                           recognised and changes nothing
 * @param activeRun          the run that kept a checkpoint and has not recorded its end: live, or lost with its
 *                           replica when no claim holds the thread
 * @param lastRun            the latest run that ended, and how
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ThreadMeta(Map<String, Instant> messageTimes, List<Interrupt> openInterrupts,
                         List<String> resolvedInterrupts, RunRecord activeRun, RunRecord lastRun) {

    public static final ThreadMeta EMPTY = new ThreadMeta(Map.of(), List.of(), List.of(), null, null);

    public ThreadMeta {
        messageTimes = messageTimes == null ? Map.of() : Map.copyOf(messageTimes);
        openInterrupts = openInterrupts == null ? List.of() : List.copyOf(openInterrupts);
        resolvedInterrupts = resolvedInterrupts == null ? List.of() : List.copyOf(resolvedInterrupts);
    }
}
