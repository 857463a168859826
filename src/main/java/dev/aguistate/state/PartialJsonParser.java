package dev.aguistate.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.state.PartialValue.ArrayValue;
import dev.aguistate.state.PartialValue.Container;
import dev.aguistate.state.PartialValue.ObjectValue;
import dev.aguistate.state.PartialValue.ScalarValue;
import dev.aguistate.state.PartialValue.StringValue;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Parses JSON text fed in arbitrary fragments into a growing {@link PartialValue} tree, in one pass: every
 * character is looked at once, whatever the fragmentation, so the work per fragment is proportional to the
 * fragment. Values appear as early as they can be shown truthfully: containers and strings when they open,
 * numbers once a delimiter ends them, literals once spelled out. Text that is not JSON stops the parse; the tree
 * keeps what was shown before.
 */
final class PartialJsonParser {

    private enum Expect {
        VALUE,
        FIRST_ELEMENT_OR_END,
        FIRST_NAME_OR_END,
        NAME,
        NAME_TEXT,
        COLON,
        STRING_TEXT,
        NUMBER,
        LITERAL,
        AFTER_VALUE,
        FAILED
    }

    private final Deque<Container> open = new ArrayDeque<>();
    private final JsonStringDecoder strings = new JsonStringDecoder();
    private final StringBuilder memberName = new StringBuilder();
    /** The number or literal read so far. */
    private final StringBuilder token = new StringBuilder();
    private String literal;
    private StringValue openString;
    private PartialValue root;
    private Expect expect = Expect.VALUE;

    void feed(CharSequence fragment) {
        for (int i = 0; i < fragment.length() && expect != Expect.FAILED; i++) {
            accept(fragment.charAt(i));
        }
    }

    /** The top-level value, or null before it starts. */
    PartialValue root() {
        return root;
    }

    private void accept(char c) {
        switch (expect) {
            case VALUE -> startValue(c);
            case FIRST_ELEMENT_OR_END -> {
                if (c == ']') closeContainer(); else startValue(c);
            }
            case FIRST_NAME_OR_END -> {
                if (c == '}') closeContainer(); else startName(c);
            }
            case NAME -> startName(c);
            case NAME_TEXT -> {
                JsonStringDecoder.Step step = strings.accept(c);
                if (step == JsonStringDecoder.Step.CLOSED) expect = Expect.COLON;
                else if (step == JsonStringDecoder.Step.INVALID) fail();
            }
            case COLON -> {
                if (c == ':') expect = Expect.VALUE; else if (!isWhitespace(c)) fail();
            }
            case STRING_TEXT -> {
                JsonStringDecoder.Step step = strings.accept(c);
                if (step == JsonStringDecoder.Step.CLOSED) completeValue(openString);
                else if (step == JsonStringDecoder.Step.INVALID) fail();
            }
            case NUMBER -> acceptNumberChar(c);
            case LITERAL -> acceptLiteralChar(c);
            case AFTER_VALUE -> afterValue(c);
            case FAILED -> { }
        }
    }

    private void startValue(char c) {
        if (isWhitespace(c)) {
            return;
        }
        switch (c) {
            case '{' -> openContainer(new ObjectValue(), Expect.FIRST_NAME_OR_END);
            case '[' -> openContainer(new ArrayValue(), Expect.FIRST_ELEMENT_OR_END);
            case '"' -> {
                openString = new StringValue();
                if (attach(openString)) {
                    strings.start(openString.text);
                    expect = Expect.STRING_TEXT;
                }
            }
            case 't' -> startLiteral("true");
            case 'f' -> startLiteral("false");
            case 'n' -> startLiteral("null");
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    token.setLength(0);
                    token.append(c);
                    expect = Expect.NUMBER;
                } else {
                    fail();
                }
            }
        }
    }

    private void openContainer(Container container, Expect next) {
        if (attach(container)) {
            open.push(container);
            expect = next;
        }
    }

    private void startName(char c) {
        if (c == '"') {
            memberName.setLength(0);
            strings.start(memberName);
            expect = Expect.NAME_TEXT;
        } else if (!isWhitespace(c)) {
            fail();
        }
    }

    private void startLiteral(String spelling) {
        literal = spelling;
        token.setLength(0);
        acceptLiteralChar(spelling.charAt(0));
    }

    /** A literal has a fixed spelling, so it is complete with its last letter: no delimiter needed. */
    private void acceptLiteralChar(char c) {
        if (c != literal.charAt(token.length())) {
            fail();
            return;
        }
        token.append(c);
        expect = Expect.LITERAL;
        if (token.length() == literal.length()) {
            ScalarValue value = new ScalarValue(switch (literal) {
                case "true" -> BooleanNode.TRUE;
                case "false" -> BooleanNode.FALSE;
                default -> NullNode.instance;
            });
            if (attach(value)) completeValue(value);
        }
    }

    /** A number can always go on (1 → 12 → 12.5 → 12.5e3), so only the character after it completes it. */
    private void acceptNumberChar(char c) {
        if ((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
            token.append(c);
            return;
        }
        if (!isWhitespace(c) && c != ',' && c != '}' && c != ']') {
            fail();
            return;
        }
        JsonNode number = parseNumber();
        if (number == null) {
            fail();
            return;
        }
        ScalarValue value = new ScalarValue(number);
        if (attach(value)) {
            completeValue(value);
            afterValue(c);
        }
    }

    /** Jackson decides validity and the node type, so the number matches the final parse of the arguments. */
    private JsonNode parseNumber() {
        try {
            return AgUiJson.mapper().readTree(token.toString());
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private void afterValue(char c) {
        if (isWhitespace(c)) {
            return;
        }
        Container container = open.peek();
        if (container == null) {
            fail(); // trailing text after the top-level value
        } else if (c == ',') {
            expect = container instanceof ObjectValue ? Expect.NAME : Expect.VALUE;
        } else if (c == (container instanceof ObjectValue ? '}' : ']')) {
            closeContainer();
        } else {
            fail();
        }
    }

    private void closeContainer() {
        completeValue(open.pop());
    }

    private void completeValue(PartialValue value) {
        value.markComplete();
        expect = Expect.AFTER_VALUE;
    }

    /** @return false (and the parse fails) on a duplicate member name: its value could not be shown truthfully */
    private boolean attach(PartialValue value) {
        Container parent = open.peek();
        if (parent == null) {
            root = value;
        } else if (parent instanceof ObjectValue object) {
            if (!object.add(memberName.toString(), value)) {
                fail();
                return false;
            }
        } else {
            ((ArrayValue) parent).add(value);
        }
        return true;
    }

    private void fail() {
        expect = Expect.FAILED;
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
