package dev.aguistate.protocol;

import java.util.Optional;

/**
 * What an id ({@code threadId}, {@code runId}, {@code parentRunId}, message ids, tool call ids, {@code toolCallId},
 * interrupt ids) and a tool name may be: 1 to {@value #MAX_LENGTH} characters, not only whitespace, no control
 * character ({@link ControlCharacters}). Lone surrogates are refused anywhere in a request, ids included
 * ({@link JsonInputScan}).
 *
 * <p>Why these rules: ids are logged, so a line break or an ANSI escape in one would forge or garble log lines; a
 * thread id is a key in every store, and PostgreSQL's text cannot hold NUL and its btree index refuses a key over
 * about 2.7 KB. {@value #MAX_LENGTH} characters are at most 1 KiB of UTF-8: every store holds that, so an id that
 * passes here never fails later with "try again".
 */
public final class IdRules {

    public static final int MAX_LENGTH = 256;

    private IdRules() {}

    /** Why {@code value} is not a valid id, phrased to follow the field's name; empty when it is one. */
    public static Optional<String> violation(String value) {
        if (value == null || value.isBlank()) {
            return Optional.of("is required (a non-empty string)");
        }
        if (value.codePointCount(0, value.length()) > MAX_LENGTH) {
            return Optional.of("is longer than " + MAX_LENGTH + " characters");
        }
        int control = ControlCharacters.indexOfControl(value);
        if (control >= 0) {
            return Optional.of("contains the control character " + ControlCharacters.codePoint(value.charAt(control))
                    + " at position " + control + "; ids and names may not contain control characters");
        }
        return Optional.empty();
    }
}
