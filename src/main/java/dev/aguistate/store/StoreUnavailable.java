package dev.aguistate.store;

/**
 * The store did not answer within {@code agui.store.timeout}, or its server or the connection to it failed. For a
 * commit, the outcome is unknown but whole: the commit was either applied completely or not at all (see
 * docs/reliability.md).
 */
public final class StoreUnavailable extends StoreFailure {

    StoreUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
