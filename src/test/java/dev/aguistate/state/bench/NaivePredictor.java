package dev.aguistate.state.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.DiffFlags;
import com.flipkart.zjsonpatch.JsonDiff;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;

/**
 * The baseline the benchmark compares against (java-stack.md §5 "practical approach"): on every chunk, complete
 * the whole buffer into valid JSON, parse it with Jackson and diff the new state against the previous one with
 * zjsonpatch. Correct enough to be a fair opponent, but O(buffer) per chunk.
 */
final class NaivePredictor {

    private static final ObjectMapper JACKSON = new ObjectMapper();
    private static final EnumSet<DiffFlags> FLAGS =
            EnumSet.of(DiffFlags.OMIT_VALUE_ON_REMOVE, DiffFlags.OMIT_MOVE_OPERATION, DiffFlags.OMIT_COPY_OPERATION);

    private final String argument;
    private final StringBuilder buffer = new StringBuilder();
    private JsonNode previous = JsonNodeFactory.instance.objectNode();

    NaivePredictor(String argument) {
        this.argument = argument;
    }

    /** The patch from the previous prediction to the current one. */
    JsonNode onArguments(String fragment) throws JsonProcessingException {
        buffer.append(fragment);
        String completed = complete(buffer);
        if (completed == null) {
            return JsonNodeFactory.instance.arrayNode();
        }
        ObjectNode current = JsonNodeFactory.instance.objectNode();
        JsonNode value = JACKSON.readTree(completed).get(argument);
        if (value != null) {
            current.set(argument, value);
        }
        JsonNode patch = JsonDiff.asJson(previous, current, FLAGS);
        previous = current;
        return patch;
    }

    /**
     * A JSON document showing what the prefix shows: cut back to the last complete value (or the open string's
     * text, minus a dangling escape), then close the open string and containers. Null before the first bracket.
     */
    static String complete(CharSequence prefix) {
        Deque<Character> closers = new ArrayDeque<>();
        int cut = -1;
        boolean inString = false;
        boolean stringIsName = false;
        boolean expectName = false;
        int escapeStart = -1;
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (inString) {
                if (escapeStart >= 0) {
                    boolean unicode = prefix.charAt(escapeStart + 1) == 'u';
                    if (!unicode || i - escapeStart == 5) escapeStart = -1;
                } else if (c == '\\') {
                    escapeStart = i;
                } else if (c == '"') {
                    inString = false;
                    if (!stringIsName) cut = i + 1;
                }
                continue;
            }
            switch (c) {
                case '"' -> {
                    inString = true;
                    stringIsName = expectName;
                }
                case '{', '[' -> {
                    closers.push(c == '{' ? '}' : ']');
                    expectName = c == '{';
                    cut = i + 1;
                }
                case '}', ']' -> {
                    closers.pop();
                    cut = i + 1;
                }
                case ',' -> {
                    cut = i;
                    expectName = closers.peek() == '}';
                }
                case ':' -> expectName = false;
                default -> { }
            }
        }
        if (cut < 0) {
            return null;
        }
        StringBuilder completed = new StringBuilder(prefix.length() + closers.size() + 1);
        if (inString && !stringIsName) {
            completed.append(prefix, 0, escapeStart >= 0 ? escapeStart : prefix.length()).append('"');
        } else {
            completed.append(prefix, 0, cut);
        }
        closers.forEach(completed::append);
        return completed.toString();
    }
}
