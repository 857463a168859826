package dev.aguistate.state;

/** RFC 6901 JSON Pointer tokens. */
final class JsonPointers {

    private JsonPointers() {}

    /** "/" + the member name with {@code ~} and {@code /} escaped (in that order, as RFC 6901 §4 requires). */
    static String segment(String name) {
        return "/" + name.replace("~", "~0").replace("/", "~1");
    }
}
