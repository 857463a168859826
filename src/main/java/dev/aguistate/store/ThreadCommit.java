package dev.aguistate.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What one run stores, all or nothing: the thread (at {@code expectedVersion} + 1; 0 = the thread must not exist
 * yet) and the shared scopes it changed, each at its own expected version.
 */
public record ThreadCommit(StoredThread thread, long expectedVersion, List<ScopeWrite> scopes) {

    public ThreadCommit {
        scopes = List.copyOf(scopes);
    }

    /** A new value for a shared scope, valid only if the scope is still at {@code expectedVersion}. */
    public record ScopeWrite(String scope, ObjectNode state, long expectedVersion) {}
}
