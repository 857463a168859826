package dev.aguistate.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * State shared beyond one thread: {@code user:<owner>} for all threads of a user, {@code app} for everyone.
 * Version 0 means "never stored".
 */
public record ScopedState(String scope, ObjectNode state, long version) {

    public static String userScope(String owner) {
        return "user:" + owner;
    }

    public static final String APP_SCOPE = "app";
}
