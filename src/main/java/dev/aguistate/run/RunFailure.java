package dev.aguistate.run;

/** A run-level failure with a stable {@code RUN_ERROR} code and a message safe for clients. */
public final class RunFailure extends RuntimeException {

    private final String code;
    private final boolean fromStore;

    public RunFailure(String code, String message) {
        this(code, message, false);
    }

    private RunFailure(String code, String message, boolean fromStore) {
        super(message, null, false, false);
        this.code = code;
        this.fromStore = fromStore;
    }

    /** The thread store refused or failed to keep the run's progress. */
    public static RunFailure ofStore(String code, String message) {
        return new RunFailure(code, message, true);
    }

    static RunFailure maxDuration() {
        return new RunFailure("max_duration_exceeded",
                "The run went on longer than this server allows (agui.run.max-duration); what it completed is kept.");
    }

    static RunFailure maxRounds(int maxRounds) {
        return new RunFailure("max_rounds_exceeded",
                "The agent was still calling tools after " + maxRounds + " model calls (agui.run.max-rounds).");
    }

    static RunFailure toolFailed(String message) {
        return new RunFailure("tool_failed", message);
    }

    static RunFailure subagentAsked(String agent) {
        return new RunFailure("subagent_interrupted", "The sub-agent " + agent
                + " wanted the user's confirmation or a page's tool, which a sub-agent cannot ask for.");
    }

    static RunFailure invalidStateOutput(String reason) {
        return new RunFailure("invalid_state_output", "The model's new state was rejected: " + reason);
    }

    public String code() {
        return code;
    }

    boolean fromStore() {
        return fromStore;
    }
}
