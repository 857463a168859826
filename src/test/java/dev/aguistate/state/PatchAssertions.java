package dev.aguistate.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.fge.jsonpatch.JsonPatch;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.PatchOperation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Plays the client: drains a {@link PredictiveState} and applies each patch, as sent on the wire, with an
 * independent strict RFC 6902 implementation (java-json-tools), checking the rules of our patches on the way.
 */
final class PatchAssertions {

    /**
     * java-json-tools reads patch values with BigDecimal floats (DecimalNode) where Jackson's default is a
     * DoubleNode; the client holds the same number either way.
     */
    static final Comparator<JsonNode> NUMBERS_BY_VALUE = (a, b) -> a.isNumber() && b.isNumber()
            ? a.decimalValue().compareTo(b.decimalValue())
            : a.equals(b) ? 0 : 1;

    private JsonNode client;

    PatchAssertions(ObjectNode initialClientState) {
        this.client = initialClientState.deepCopy();
    }

    JsonNode client() {
        return client;
    }

    /** Drains, applies op by op, and checks the client now holds exactly {@link PredictiveState#clientView()}. */
    List<PatchOperation> drainAndApply(PredictiveState state, String where) throws Exception {
        boolean pending = state.hasPendingChanges();
        List<PatchOperation> ops = state.drain();
        assertEquals(pending, !ops.isEmpty(), where + ": hasPendingChanges() disagrees with drain()");
        return apply(state, ops, where);
    }

    /** Applies what {@link PredictiveState#drainDue} gave, with the same checks. */
    List<PatchOperation> apply(PredictiveState state, List<PatchOperation> ops, String where) throws Exception {
        List<String> addedNow = new ArrayList<>();
        for (PatchOperation op : ops) {
            assertTargetsValidly(op, where);
            for (String added : addedNow) {
                assertFalse(op.path().startsWith(added + "/"), where + ": " + op.path() + " already carried by " + added);
            }
            if (op.op().equals("add")) {
                addedNow.add(op.path());
            }
            JsonNode wire = AgUiJson.tree(AgUiJson.write(List.of(op)));
            client = JsonPatch.fromJson(wire).apply(client);
        }
        JsonNode view = state.clientView();
        assertTrue(client.equals(NUMBERS_BY_VALUE, view),
                () -> where + ": client view differs from the patched client: " + client + " vs " + view);
        return ops;
    }

    /** Predictions only grow: add a missing member or the next element; replace only what exists. */
    private void assertTargetsValidly(PatchOperation op, String where) {
        JsonPointer pointer = JsonPointer.compile(op.path());
        JsonNode parent = client.at(pointer.head());
        String last = pointer.last().getMatchingProperty();
        switch (op.op()) {
            case "replace" -> assertFalse(client.at(pointer).isMissingNode(), where + ": replace of missing " + op.path());
            case "add" -> {
                if (parent.isArray()) {
                    assertEquals(parent.size(), Integer.parseInt(last), where + ": add not appending " + op.path());
                } else {
                    assertTrue(parent.isObject() && !parent.has(last), where + ": add of existing " + op.path());
                }
            }
            default -> throw new AssertionError(where + ": unexpected op " + op);
        }
    }
}
