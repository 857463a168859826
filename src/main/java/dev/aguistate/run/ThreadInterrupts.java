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

    /**
     * After a run: open, those it did not answer and those it opened; remembered, the ones it answered too. An
     * interrupt counts as answered only once its answer was carried out and recorded.
     */
    ThreadInterrupts next(List<Interrupt> opened, List<String> answered) {
        List<Interrupt> stillOpen = new ArrayList<>();
        open.stream().filter(interrupt -> !answered.contains(interrupt.id())).forEach(stillOpen::add);
        stillOpen.addAll(opened);
        List<String> remembered = new ArrayList<>(resolved);
        remembered.addAll(answered);
        return new ThreadInterrupts(stillOpen,
                remembered.subList(Math.max(0, remembered.size() - RESOLVED_KEPT), remembered.size()));
    }
}
