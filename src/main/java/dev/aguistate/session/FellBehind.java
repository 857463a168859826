package dev.aguistate.session;

/** The connection that started a run fell further behind it than its {@link FollowWindow} and is disconnected. */
public final class FellBehind extends RuntimeException {

    FellBehind() {
        super("the client fell too far behind the run", null, false, false);
    }
}
