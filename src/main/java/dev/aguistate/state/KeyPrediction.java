package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.PatchOperation;
import dev.aguistate.state.PartialValue.Container;
import dev.aguistate.state.PartialValue.ObjectValue;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One state key fed by one tool call: remembers how much of the prediction the client holds and turns the growth
 * since then into JSON Patch operations, applying them to the client view as well.
 *
 * <p>Because a {@link PartialValue} only grows and only its last child can still change, everything the client
 * holds is final except along one path: the values that were still open at the last drain. Remembering that path
 * with each value's length at the time is enough to find every change, in time proportional to the path's depth
 * plus the size of the patch, never to the size of the value.
 */
final class KeyPrediction {

    private final String stateKey;
    /** The predicted value, or null while it has not started. */
    private final Supplier<PartialValue> source;
    private final ObjectNode clientView;
    /** The values that were open at the last drain, outermost first; everything else the client holds is final. */
    private final List<Sent> openPath = new ArrayList<>();
    private boolean appeared;

    KeyPrediction(String stateKey, Supplier<PartialValue> source, ObjectNode clientView) {
        this.stateKey = stateKey;
        this.source = source;
        this.clientView = clientView;
    }

    boolean hasPendingChanges() {
        if (!appeared) {
            return source.get() != null;
        }
        for (Sent sent : openPath) {
            if (sent.value.length() > sent.length) {
                return true;
            }
        }
        return false;
    }

    void drainInto(List<PatchOperation> ops) {
        if (!appeared) {
            PartialValue value = source.get();
            if (value == null) {
                return;
            }
            // the prediction supersedes whatever the client had under the key
            ops.add(clientView.has(stateKey) ? rootLocation().replace(value) : rootLocation().add(value));
            appeared = true;
        } else if (!openPath.isEmpty()) {
            drainFrom(0, ops);
        }
        rememberOpenPath();
    }

    /** Parents before children, and a container's grown last child before its new children (index order). */
    private void drainFrom(int depth, List<PatchOperation> ops) {
        Sent sent = openPath.get(depth);
        if (!(sent.value instanceof Container container)) {
            if (sent.value.length() > sent.length) {
                ops.add(sent.location.replace(sent.value)); // JSON Patch cannot append to a string
            }
            return;
        }
        if (depth + 1 < openPath.size()) {
            drainFrom(depth + 1, ops);
        }
        for (int i = sent.length; i < container.length(); i++) {
            ops.add(sent.location.child(container, i).add(container.child(i)));
        }
    }

    private void rememberOpenPath() {
        openPath.clear();
        PartialValue value = source.get();
        Location location = rootLocation();
        while (value != null && !value.isComplete()) {
            openPath.add(new Sent(value, location, value.length()));
            if (!(value instanceof Container container) || container.length() == 0) {
                break;
            }
            location = location.child(container, container.length() - 1);
            value = container.lastChild();
        }
    }

    private Location rootLocation() {
        return new Location(JsonPointers.segment(stateKey), new FieldSlot(clientView, stateKey));
    }

    /** An open value as the client held it at the last drain. */
    private record Sent(PartialValue value, Location location, int length) {}

    /** Where a value sits: its JSON Pointer for the patch and its slot in the client view. */
    private record Location(String pointer, Slot slot) {

        Location child(Container container, int index) {
            JsonNode parent = slot.get();
            if (container instanceof ObjectValue object) {
                String name = object.name(index);
                return new Location(pointer + JsonPointers.segment(name), new FieldSlot((ObjectNode) parent, name));
            }
            return new Location(pointer + "/" + index, new ElementSlot((ArrayNode) parent, index));
        }

        PatchOperation add(PartialValue value) {
            JsonNode json = value.toJson();
            slot.put(json.deepCopy()); // the op keeps its own tree: later growth must not alter an emitted patch
            return PatchOperation.add(pointer, json);
        }

        PatchOperation replace(PartialValue value) {
            JsonNode json = value.toJson();
            slot.put(json.deepCopy());
            return PatchOperation.replace(pointer, json);
        }
    }

    private sealed interface Slot permits FieldSlot, ElementSlot {
        JsonNode get();

        void put(JsonNode value);
    }

    private record FieldSlot(ObjectNode parent, String name) implements Slot {
        public JsonNode get() {
            return parent.get(name);
        }

        public void put(JsonNode value) {
            parent.set(name, value);
        }
    }

    /** Elements are only ever appended (add at index == size) or replaced in place. */
    private record ElementSlot(ArrayNode parent, int index) implements Slot {
        public JsonNode get() {
            return parent.get(index);
        }

        public void put(JsonNode value) {
            if (index == parent.size()) parent.add(value); else parent.set(index, value);
        }
    }
}
