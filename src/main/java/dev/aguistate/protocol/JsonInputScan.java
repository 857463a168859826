package dev.aguistate.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * One pass over the tokens of a request body, before it becomes a tree, for what the tree would hide: the literal
 * text of numbers and the UTF-16 of strings. Everything a request carries is stored and sent back, so a value the
 * server cannot keep exactly is refused here rather than changed silently:
 *
 * <ul>
 *   <li>a number is kept as a 64-bit double (what JSON clients, JavaScript first, read it as): a literal the double
 *       does not reproduce is refused — too large ({@code 1e400} would become Infinity), too small ({@code 1e-400}
 *       would become 0), or with more significant digits than the double holds. Integers without fraction or
 *       exponent are kept exactly at any size (up to the parser's 1000 digits).</li>
 *   <li>a string or member name with a lone surrogate ({@code "\ud800"}) is refused: UTF-8 (the wire, Redis,
 *       PostgreSQL) has no encoding for it, so it would come back as {@code ?}.</li>
 * </ul>
 *
 * Syntax errors, duplicate member names and content after the document surface as Jackson's exceptions, for the
 * caller to report as malformed JSON; a body that is valid JSON but breaks a rule above gets an
 * {@link InvalidRunInput#invalid} naming the first offending value.
 */
final class JsonInputScan {

    /** Any literal of at most this many significant digits survives a double, in the normal range (DBL_DIG). */
    private static final int ALWAYS_EXACT_DIGITS = 15;
    private static final int QUOTED_LITERAL_MAX = 40;

    private JsonInputScan() {}

    static void check(String json) throws IOException {
        try (JsonParser parser = AgUiJson.mapper().createParser(json)) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                throw InvalidRunInput.malformedJson("the request body is empty");
            }
            String violation = null;
            while (true) {
                if (violation == null) {
                    violation = violation(parser, token);
                }
                if (parser.getParsingContext().inRoot() && (token.isScalarValue() || token.isStructEnd())) {
                    break;
                }
                token = parser.nextToken();
            }
            if (parser.nextToken() != null) {
                throw InvalidRunInput.malformedJson("malformed JSON: unexpected content after the JSON value at line "
                        + parser.currentTokenLocation().getLineNr() + ", column "
                        + parser.currentTokenLocation().getColumnNr());
            }
            if (violation != null) {
                throw InvalidRunInput.invalid(violation);
            }
        }
    }

    /** Why the current token cannot be kept, or null. */
    private static String violation(JsonParser parser, JsonToken token) throws IOException {
        return switch (token) {
            case FIELD_NAME, VALUE_STRING -> hasLoneSurrogate(parser)
                    ? path(parser.getParsingContext()) + (token == JsonToken.FIELD_NAME ? ": the member name" : "")
                            + " contains a lone surrogate (half of a UTF-16 pair), which UTF-8 cannot encode"
                    : null;
            case VALUE_NUMBER_FLOAT -> {
                String literal = parser.getText();
                yield numberViolation(literal)
                        .map(reason -> path(parser.getParsingContext()) + ": the number " + quoted(literal) + " "
                                + reason + "; send it as a string to keep it exactly")
                        .orElse(null);
            }
            default -> null;
        };
    }

    private static boolean hasLoneSurrogate(JsonParser parser) throws IOException {
        char[] text = parser.getTextCharacters();
        int end = parser.getTextOffset() + parser.getTextLength();
        for (int i = parser.getTextOffset(); i < end; i++) {
            char c = text[i];
            if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(text[i + 1])) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** Why a JSON float literal does not survive as a double, if it does not. */
    static Optional<String> numberViolation(String literal) {
        double value = Double.parseDouble(literal);
        if (Double.isInfinite(value)) {
            return Optional.of("is too large for a 64-bit floating-point number");
        }
        int digits = significantDigits(literal);
        if (digits == 0) {
            return Optional.empty();
        }
        if (value == 0) {
            return Optional.of("is too small for a 64-bit floating-point number (it would become 0)");
        }
        if (digits <= ALWAYS_EXACT_DIGITS && Math.abs(value) >= Double.MIN_NORMAL) {
            return Optional.empty();
        }
        // The double reproduces the literal when, written with as many significant digits as the literal has, it
        // is the literal: then the literal carried nothing the double lost.
        BigDecimal written = new BigDecimal(value).round(new MathContext(digits, RoundingMode.HALF_EVEN));
        return written.compareTo(new BigDecimal(literal)) == 0 ? Optional.empty()
                : Optional.of("has more significant digits than a 64-bit floating-point number holds");
    }

    /** Significant digits of the literal's mantissa: no sign, point, leading or trailing zeros; 0 for zero. */
    private static int significantDigits(String literal) {
        int end = literal.length();
        for (int i = 0; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c == 'e' || c == 'E') {
                end = i;
                break;
            }
        }
        int first = -1;
        int last = -1;
        int digits = 0;
        for (int i = 0; i < end; i++) {
            char c = literal.charAt(i);
            if (c >= '1' && c <= '9') {
                if (first < 0) {
                    first = digits;
                }
                last = digits;
            }
            if (c >= '0' && c <= '9') {
                digits++;
            }
        }
        return first < 0 ? 0 : last - first + 1;
    }

    /** {@code messages[2].content}, {@code state.a.b[0]}: the path of the current token, as messages name fields. */
    private static String path(JsonStreamContext context) {
        Deque<String> parts = new ArrayDeque<>();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inArray()) {
                parts.addFirst("[" + Math.max(c.getCurrentIndex(), 0) + "]");
            } else if (c.getCurrentName() != null) {
                parts.addFirst((c.getParent() != null && c.getParent().inRoot() ? "" : ".")
                        + ControlCharacters.escape(c.getCurrentName()));
            }
        }
        return parts.isEmpty() ? "the request body" : String.join("", parts);
    }

    private static String quoted(String literal) {
        return literal.length() <= QUOTED_LITERAL_MAX ? literal
                : literal.substring(0, QUOTED_LITERAL_MAX) + "… (" + literal.length() + " characters)";
    }
}
