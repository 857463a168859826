package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.BinaryOperator;

/** Ready-made merge handlers: {@code (current, written) -> new value}; {@code current} is null for a new key. */
public final class MergeHandlers {

    /** The written value wins. */
    public static final BinaryOperator<JsonNode> REPLACE = (current, written) -> written;

    /** Arrays: the written elements are appended to the current ones. Anything else: replaced. */
    public static final BinaryOperator<JsonNode> CONCATENATE = (current, written) -> {
        if (current instanceof ArrayNode existing && written instanceof ArrayNode added) {
            return existing.deepCopy().addAll(added);
        }
        return written;
    };

    /** Objects: the written members are merged into the current object (one level deep). Anything else: replaced. */
    public static final BinaryOperator<JsonNode> MERGE_OBJECT = (current, written) -> {
        if (current instanceof ObjectNode existing && written instanceof ObjectNode added) {
            return existing.deepCopy().setAll(added);
        }
        return written;
    };

    private MergeHandlers() {}
}
