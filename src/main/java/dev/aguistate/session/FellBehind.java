package dev.aguistate.session;

/** A connection fell more than {@code agui.run.follow-window} events behind its run and is disconnected. */
public final class FellBehind extends RuntimeException {

    FellBehind() {
        super("the client fell too far behind the run", null, false, false);
    }
}
