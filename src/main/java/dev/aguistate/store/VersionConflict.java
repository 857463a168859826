package dev.aguistate.store;

/** A commit lost a race: the thread or a scope changed since it was read. Nothing was written. */
public final class VersionConflict extends StoreFailure {

    public VersionConflict(String what, long expected, long actual) {
        super(what + " is at version " + actual + ", not " + expected, null);
    }
}
