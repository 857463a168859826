package dev.aguistate.run;

/**
 * A run request the run loop refuses before any event is streamed: the caller answers it as a client error.
 *
 * @see AgentRunner#run
 */
public final class RunRejected extends RuntimeException {

    private final String code;

    RunRejected(String code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    /** A stable code for the client, e.g. {@code invalid_state}. */
    public String code() {
        return code;
    }
}
