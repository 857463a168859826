package dev.aguistate.store;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What a thread's owner says about it, apart from its conversation: a name, whether it is archived (listings leave
 * it out unless asked), and free metadata (a JSON object of the client's choosing). It is saved beside the thread
 * ({@link ThreadStore#saveInfo}) and never by a run's commit, which keeps the stored one: a rename during a run
 * loses neither.
 *
 * @param name     null when it has none
 * @param metadata never null; an empty object when there is none
 */
public record ThreadInfo(String name, boolean archived, ObjectNode metadata) {

    /** The longest name, in characters. */
    public static final int MAX_NAME = 200;

    public static final ThreadInfo EMPTY = new ThreadInfo(null, false, null);

    public ThreadInfo {
        metadata = metadata == null ? JsonNodeFactory.instance.objectNode() : metadata.deepCopy();
    }

    /** This info with another name. */
    public ThreadInfo named(String newName) {
        return new ThreadInfo(newName, archived, metadata);
    }

    public boolean isEmpty() {
        return name == null && !archived && metadata.isEmpty();
    }
}
