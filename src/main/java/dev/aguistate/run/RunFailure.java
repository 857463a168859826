package dev.aguistate.run;

/** A run-level failure with a stable {@code RUN_ERROR} code and a message safe for clients. */
public final class RunFailure extends RuntimeException {

    private final String code;

    public RunFailure(String code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    static RunFailure maxRounds(int maxRounds) {
        return new RunFailure("max_rounds_exceeded",
                "The agent was still calling tools after " + maxRounds + " model calls (agui.run.max-rounds).");
    }

    static RunFailure toolFailed(String message) {
        return new RunFailure("tool_failed", message);
    }

    static RunFailure invalidStateOutput(String reason) {
        return new RunFailure("invalid_state_output", "The model's new state was rejected: " + reason);
    }

    public String code() {
        return code;
    }
}
