package dev.aguistate.run;

import dev.aguistate.protocol.Interrupt;
import java.util.ArrayList;
import java.util.List;

/**
 * A thread's interrupts: the open ones its next run must answer, and the ids of the latest answered ones, so that a
 * resume sent twice is recognised and changes nothing.
 */
public record ThreadInterrupts(List<Interrupt> open, List<String> resolved) {

    public static final ThreadInterrupts NONE = new ThreadInterrupts(List.of(), List.of());

    /** Answered ids remembered; older ones are forgotten (a retry comes within seconds, not 50 interrupts later). */
    static final int RESOLVED_KEPT = 50;

    public ThreadInterrupts {
        open = List.copyOf(open);
        resolved = List.copyOf(resolved);
    }

    /** After a run: the interrupts it opened, and the ones it answered added to the remembered ones. */
    ThreadInterrupts next(List<Interrupt> opened, List<String> answered) {
        List<String> remembered = new ArrayList<>(resolved);
        remembered.addAll(answered);
        return new ThreadInterrupts(opened,
                remembered.subList(Math.max(0, remembered.size() - RESOLVED_KEPT), remembered.size()));
    }
}
