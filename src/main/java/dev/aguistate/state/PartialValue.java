package dev.aguistate.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON value as far as it has streamed. Values only grow: members and elements are appended, strings get longer,
 * and once {@link #isComplete() complete} a value never changes again. Only the last child of an incomplete
 * container can be incomplete, which is what lets {@link KeyPrediction} find every change by walking one path.
 */
abstract sealed class PartialValue permits PartialValue.Container, PartialValue.StringValue, PartialValue.ScalarValue {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private boolean complete;

    final boolean isComplete() {
        return complete;
    }

    final void markComplete() {
        complete = true;
    }

    /** A measure that grows whenever the visible value grows: children of a container, characters of a string. */
    abstract int length();

    /** A fresh, independent tree of the value as it stands. */
    abstract JsonNode toJson();

    abstract static sealed class Container extends PartialValue permits ObjectValue, ArrayValue {

        abstract PartialValue child(int index);

        final PartialValue lastChild() {
            return length() == 0 ? null : child(length() - 1);
        }
    }

    static final class ObjectValue extends Container {
        private final List<String> names = new ArrayList<>();
        private final List<PartialValue> values = new ArrayList<>();
        private final Map<String, PartialValue> byName = new HashMap<>();

        /** @return false if the object already has a member of that name */
        boolean add(String name, PartialValue value) {
            if (byName.putIfAbsent(name, value) != null) {
                return false;
            }
            names.add(name);
            values.add(value);
            return true;
        }

        PartialValue get(String name) {
            return byName.get(name);
        }

        String name(int index) {
            return names.get(index);
        }

        @Override
        PartialValue child(int index) {
            return values.get(index);
        }

        @Override
        int length() {
            return values.size();
        }

        @Override
        ObjectNode toJson() {
            ObjectNode node = NODES.objectNode();
            for (int i = 0; i < values.size(); i++) {
                node.set(names.get(i), values.get(i).toJson());
            }
            return node;
        }
    }

    static final class ArrayValue extends Container {
        private final List<PartialValue> elements = new ArrayList<>();

        void add(PartialValue element) {
            elements.add(element);
        }

        @Override
        PartialValue child(int index) {
            return elements.get(index);
        }

        @Override
        int length() {
            return elements.size();
        }

        @Override
        ArrayNode toJson() {
            ArrayNode node = NODES.arrayNode(elements.size());
            for (PartialValue element : elements) {
                node.add(element.toJson());
            }
            return node;
        }
    }

    static final class StringValue extends PartialValue {
        /** Decoded characters; {@link JsonStringDecoder} keeps half escapes out of it. */
        final StringBuilder text = new StringBuilder();

        @Override
        int length() {
            return text.length();
        }

        @Override
        TextNode toJson() {
            return TextNode.valueOf(text.toString());
        }
    }

    /** A number, true, false or null: it exists only once complete. */
    static final class ScalarValue extends PartialValue {
        private final JsonNode value;

        ScalarValue(JsonNode value) {
            this.value = value;
            markComplete();
        }

        @Override
        int length() {
            return 0;
        }

        @Override
        JsonNode toJson() {
            return value; // immutable node: sharing it is safe
        }
    }
}
