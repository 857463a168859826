package dev.aguistate.state;

/**
 * Decodes the body of a JSON string, one character at a time, into a target buffer. The target only ever holds
 * complete characters: a pending backslash, an unfinished {@code \}{@code uXXXX} and a high surrogate waiting for
 * its low half stay here, so a reader of the target never sees half an escape.
 */
final class JsonStringDecoder {

    enum Step { MORE, CLOSED, INVALID }

    private static final int NO_ESCAPE = -2;
    private static final int AFTER_BACKSLASH = -1;

    private StringBuilder target;
    /** {@link #NO_ESCAPE}, {@link #AFTER_BACKSLASH}, or how many hex digits of a unicode escape were read. */
    private int escape;
    private int codeUnit;
    /** A high surrogate not yet written, or 0. */
    private char heldHighSurrogate;

    /** Starts a new string (the opening quote has been read). */
    void start(StringBuilder target) {
        this.target = target;
        escape = NO_ESCAPE;
        heldHighSurrogate = 0;
    }

    Step accept(char c) {
        if (escape >= 0) {
            return acceptHexDigit(c);
        }
        if (escape == AFTER_BACKSLASH) {
            return acceptEscaped(c);
        }
        if (c == '"') {
            flushHeldSurrogate();
            return Step.CLOSED;
        }
        if (c == '\\') {
            escape = AFTER_BACKSLASH;
            return Step.MORE;
        }
        if (c < 0x20) {
            return Step.INVALID; // raw control characters are not JSON; Jackson rejects them too
        }
        emit(c);
        return Step.MORE;
    }

    private Step acceptEscaped(char c) {
        escape = NO_ESCAPE;
        switch (c) {
            case '"', '\\', '/' -> emit(c);
            case 'b' -> emit('\b');
            case 'f' -> emit('\f');
            case 'n' -> emit('\n');
            case 'r' -> emit('\r');
            case 't' -> emit('\t');
            case 'u' -> {
                escape = 0;
                codeUnit = 0;
            }
            default -> {
                return Step.INVALID;
            }
        }
        return Step.MORE;
    }

    private Step acceptHexDigit(char c) {
        int digit = hexValue(c);
        if (digit < 0) {
            return Step.INVALID;
        }
        codeUnit = codeUnit << 4 | digit;
        if (++escape == 4) {
            escape = NO_ESCAPE;
            emit((char) codeUnit);
        }
        return Step.MORE;
    }

    /** Only ASCII hex digits: {@link Character#digit} would also accept e.g. full-width digits. */
    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    /** Writes a decoded UTF-16 unit; a surrogate pair is written only once both halves are known. */
    private void emit(char c) {
        if (heldHighSurrogate != 0) {
            char high = heldHighSurrogate;
            heldHighSurrogate = 0;
            target.append(high);
            if (Character.isLowSurrogate(c)) {
                target.append(c);
                return;
            }
        }
        if (Character.isHighSurrogate(c)) {
            heldHighSurrogate = c;
        } else {
            target.append(c);
        }
    }

    /** A lone high surrogate at the end of a string is kept as it is, as Jackson does. */
    private void flushHeldSurrogate() {
        if (heldHighSurrogate != 0) {
            target.append(heldHighSurrogate);
            heldHighSurrogate = 0;
        }
    }
}
