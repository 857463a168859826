package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.PatchOperation;
import dev.aguistate.state.PartialValue.Container;
import dev.aguistate.state.PartialValue.ObjectValue;
import dev.aguistate.state.PartialValue.StringValue;
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
 *
 * <p>Paced draining ({@link #drainDueInto}) also remembers when the client started lacking a change, and what the
 * updates of the open string (the end of that path, if it is a string) have cost in bytes.
 */
final class KeyPrediction {

    private static final long NOTHING_PENDING = Long.MIN_VALUE;

    private final String stateKey;
    /** The predicted value, or null while it has not started. */
    private final Supplier<PartialValue> source;
    private final ObjectNode clientView;
    /** The values that were open at the last drain, outermost first; everything else the client holds is final. */
    private final List<Sent> openPath = new ArrayList<>();
    private boolean appeared;
    /** Clock time at which a change was first seen that the client does not hold yet. */
    private long pendingSince = NOTHING_PENDING;
    /** The bytes spent on the string at the end of the open path; null when that is not a string. */
    private StringCost openString;

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

    /** Notes the time of a change the client lacks; call after every fragment so that deadlines start on time. */
    void notePending(long now) {
        if (pendingSince == NOTHING_PENDING && hasPendingChanges()) {
            pendingSince = now;
        }
    }

    /** Drains if {@code pacing} says the client should get the pending change now. */
    void drainDueInto(List<PatchOperation> ops, DeltaPacing pacing, long now) {
        notePending(now);
        if (pendingSince != NOTHING_PENDING && due(pacing, now)) {
            drainInto(ops);
        }
    }

    /**
     * A container's new member waits up to the interval. Growth of the open string alone waits up to its deadline
     * and, while the string is still open, until an update fits its budget; its final text needs no budget (the
     * budget keeps a share for it).
     */
    private boolean due(DeltaPacing pacing, long now) {
        long waited = now - pendingSince;
        if (!appeared || !pacing.paced()) {
            return true; // the key appears at once, as the client's first sign of the prediction
        }
        if (openString == null || containerGrew()) {
            return waited >= pacing.interval().toNanos();
        }
        long deadline = openString.shownChars < pacing.longTextAfterChars()
                ? pacing.interval().toNanos() : pacing.longTextInterval().toNanos();
        return waited >= deadline && (openString.value.isComplete() || openString.updateFits(pacing.stringBudget()));
    }

    private boolean containerGrew() {
        for (Sent sent : openPath) {
            if (sent.value instanceof Container && sent.value.length() > sent.length) {
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
        pendingSince = NOTHING_PENDING;
    }

    /** Parents before children, and a container's grown last child before its new children (index order). */
    private void drainFrom(int depth, List<PatchOperation> ops) {
        Sent sent = openPath.get(depth);
        if (!(sent.value instanceof Container container)) {
            if (sent.value.length() > sent.length) {
                ops.add(sent.location.replace(sent.value)); // JSON Patch cannot append to a string
                if (openString != null && openString.value == sent.value) {
                    openString.charge();
                }
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
        Sent end = openPath.isEmpty() ? null : openPath.get(openPath.size() - 1);
        if (end == null || !(end.value instanceof StringValue string)) {
            openString = null;
        } else if (openString == null || openString.value != string) {
            openString = new StringCost(string, end.location.pointer); // just sent whole, by an add or a replace
        }
    }

    private Location rootLocation() {
        return new Location(JsonPointers.segment(stateKey), new FieldSlot(clientView, stateKey));
    }

    /**
     * What the updates of one open string have cost, in bytes of {@code STATE_DELTA} events as {@link AgUiJson}
     * writes them, counted as if each update were an event of its own (conservative: events share envelopes).
     */
    private static final class StringCost {
        final StringValue value;
        /** Bytes of one update event besides the string's own encoded bytes. */
        private final int envelope;
        private int measuredChars;
        /** The JSON-encoded UTF-8 bytes of the string's first {@code measuredChars} characters. */
        private long encodedBytes;
        /** The string's length when the client last got it. */
        int shownChars;
        private long spent;

        StringCost(StringValue value, String pointer) {
            this.value = value;
            this.envelope = AgUiJson.writeBytes(new AgUiEvent.StateDelta(
                    List.of(PatchOperation.replace(pointer, TextNode.valueOf(""))))).length;
            charge();
        }

        /** The client got the whole string as it stands. */
        void charge() {
            shownChars = value.length();
            spent += encodedBytes() + envelope;
        }

        /**
         * Whether an update now keeps the total within {@code budget} × the final size, whatever the final size
         * (at least the current size E): after it the spent bytes must leave room for the final update, so
         * spent + (E + envelope) ≤ (budget − 1) × E − envelope.
         */
        boolean updateFits(int budget) {
            long bytes = encodedBytes();
            return spent + 2L * envelope <= (budget - 2L) * bytes;
        }

        /** Incremental: each character is measured once. */
        private long encodedBytes() {
            CharSequence text = value.text;
            for (; measuredChars < text.length(); measuredChars++) {
                encodedBytes += encodedBytes(text.charAt(measuredChars));
            }
            return encodedBytes;
        }

        /**
         * As Jackson's UTF-8 generator writes it with default features: short escapes, other control characters
         * and each half of a surrogate pair as a six-character unicode escape, the rest of non-ASCII raw.
         */
        private static int encodedBytes(char c) {
            if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
                return 2;
            }
            if (c < 0x20 || Character.isSurrogate(c)) {
                return 6;
            }
            if (c < 0x80) {
                return 1;
            }
            return c < 0x800 ? 2 : 3;
        }
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
