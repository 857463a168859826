package dev.aguistate.state;

/** A state write the schema (or a merge handler) refused; the message names the key and the reason. */
public final class StateWriteException extends RuntimeException {

    private final String key;

    public StateWriteException(String key, String reason) {
        super("state key '" + key + "' " + reason);
        this.key = key;
    }

    public String key() {
        return key;
    }
}
