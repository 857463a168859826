package dev.aguistate.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.store.ThreadInfo;
import java.util.Iterator;
import java.util.Map;

/**
 * A change of a thread's info, as a {@code PATCH} asks for it: the fields it names change, the others stay.
 * {@code name: null} removes the name; {@code metadata} is merged into the stored metadata key by key, and a key set
 * to {@code null} is removed (LangGraph's thread metadata works the same way).
 *
 * @param renames  whether it sets the name ({@code name} may then be null: no name)
 * @param archived null: unchanged
 * @param metadata null: unchanged
 */
public record ThreadUpdate(boolean renames, String name, Boolean archived, ObjectNode metadata) {

    /**
     * Reads a {@code PATCH} body: {@code {"name", "archived", "metadata"}}, each optional; other fields are
     * ignored (CopilotKit sends its {@code agentId} along).
     *
     * @throws IllegalArgumentException naming what is wrong, for a 400
     */
    public static ThreadUpdate of(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new IllegalArgumentException("the body is a JSON object: {\"name\", \"archived\", \"metadata\"}, "
                    + "each optional");
        }
        JsonNode name = body.get("name");
        if (name != null && !name.isNull() && !(name.isTextual() && !name.textValue().isBlank()
                && name.textValue().length() <= ThreadInfo.MAX_NAME)) {
            throw new IllegalArgumentException("name is a non-blank string of at most " + ThreadInfo.MAX_NAME
                    + " characters, or null to remove it");
        }
        JsonNode archived = body.get("archived");
        if (archived != null && !archived.isBoolean()) {
            throw new IllegalArgumentException("archived is true or false");
        }
        JsonNode metadata = body.get("metadata");
        if (metadata != null && !metadata.isObject()) {
            throw new IllegalArgumentException("metadata is a JSON object (its keys are merged into the thread's; a "
                    + "key set to null is removed)");
        }
        return new ThreadUpdate(name != null, name == null || name.isNull() ? null : name.textValue().strip(),
                archived == null ? null : archived.booleanValue(), (ObjectNode) metadata);
    }

    /** An update that archives or unarchives only. */
    public static ThreadUpdate archiving(boolean archived) {
        return new ThreadUpdate(false, null, archived, null);
    }

    public ThreadInfo applyTo(ThreadInfo info) {
        ObjectNode merged = info.metadata().deepCopy();
        if (metadata != null) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = metadata.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (field.getValue().isNull()) {
                    merged.remove(field.getKey());
                } else {
                    merged.set(field.getKey(), field.getValue());
                }
            }
        }
        return new ThreadInfo(renames ? name : info.name(), archived == null ? info.archived() : archived, merged);
    }
}
