package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.flipkart.zjsonpatch.DiffFlags;
import com.flipkart.zjsonpatch.JsonDiff;
import com.flipkart.zjsonpatch.JsonPatch;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.PatchOperation;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * RFC 6902 patches between two whole states, for changes that are not predictions (a tool writing state while it
 * runs). Move and copy are never produced: zjsonpatch's move/copy detection is where its known wrong patches
 * come from, and clients apply add/replace/remove most reliably.
 */
public final class StatePatches {

    private static final EnumSet<DiffFlags> FLAGS = EnumSet.of(DiffFlags.OMIT_VALUE_ON_REMOVE,
            DiffFlags.OMIT_MOVE_OPERATION, DiffFlags.OMIT_COPY_OPERATION);

    private StatePatches() {}

    /** The document with the patch applied, as a client applies a {@code STATE_DELTA}; the document is not changed. */
    public static JsonNode apply(JsonNode document, List<PatchOperation> patch) {
        return JsonPatch.apply(AgUiJson.mapper().valueToTree(patch), document);
    }

    public static List<PatchOperation> diff(JsonNode from, JsonNode to) {
        List<PatchOperation> patch = new ArrayList<>();
        for (JsonNode op : JsonDiff.asJson(from, to, FLAGS)) {
            patch.add(new PatchOperation(op.get("op").asText(), op.get("path").asText(), op.get("value"),
                    op.hasNonNull("from") ? op.get("from").asText() : null));
        }
        return patch;
    }
}
