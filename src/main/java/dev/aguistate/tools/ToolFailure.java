package dev.aguistate.tools;

/** Why a backend tool call failed; the message is meant for the LLM and the client, never a stack trace. */
public final class ToolFailure extends Exception {

    public enum Kind { NOT_FOUND, INVALID_ARGUMENTS, INVOCATION_FAILED, RESULT_NOT_TEXT, STATE_MERGE_FAILED }

    private final Kind kind;

    public ToolFailure(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
