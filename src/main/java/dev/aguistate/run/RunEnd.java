package dev.aguistate.run;

/**
 * How a run ended, as the thread remembers it: {@code success}, {@code interrupt}, {@code cancelled}, or the
 * {@code RUN_ERROR} code of a failed run.
 */
public record RunEnd(String outcome) {

    static final RunEnd SUCCESS = new RunEnd("success");
    static final RunEnd INTERRUPTED = new RunEnd("interrupt");
    static final RunEnd CANCELLED = new RunEnd("cancelled");

    public boolean failed() {
        return !this.equals(SUCCESS) && !this.equals(INTERRUPTED) && !this.equals(CANCELLED);
    }
}
