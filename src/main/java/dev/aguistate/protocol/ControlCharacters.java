package dev.aguistate.protocol;

/**
 * The characters that must never reach a log line or an id raw: C0 controls (including CR, LF, TAB, ESC, NUL), DEL,
 * C1 controls, and the Unicode line and paragraph separators (U+2028, U+2029) that some viewers break lines on. A
 * client string that carries one could forge a log line, recolour a terminal, or be cut off by a store.
 */
public final class ControlCharacters {

    private ControlCharacters() {}

    public static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }

    /** The first control character's index, or -1. */
    public static int indexOfControl(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            if (isControl(text.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The text with every control character written as an escape ({@code \n}, {@code \r}, {@code \t},
     * {@code \u001b}, ...), so that it stays on one line and shows what was sent; the same instance when there is none.
     */
    public static String escape(String text) {
        int first = indexOfControl(text);
        if (first < 0) {
            return text;
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                default -> {
                    if (isControl(c)) {
                        escaped.append(String.format("\\u%04x", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }

    /** {@code U+000A}: how a message names a character without printing it. */
    public static String codePoint(char c) {
        return String.format("U+%04X", (int) c);
    }
}
