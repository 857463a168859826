package dev.aguistate.http;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A path that routes are served under: {@code ""} for the server's root, else {@code /a/b} (a leading slash, none at
 * the end). A configured path is read as Quarkus reads its own ({@code quarkus.http.non-application-root-path}):
 * with a leading slash it is absolute, from the server's root; without one it is relative to the path it is resolved
 * against.
 */
public record BasePath(String prefix) {

    public static final BasePath SERVER_ROOT = new BasePath("");

    /** A segment of a base path: unreserved characters only, so that it is the same on the wire and in a route. */
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._~-]+");

    /** {@code agui.http.root}: every route of the server is under it. */
    public static BasePath root(HttpConfig config) {
        return SERVER_ROOT.resolve("agui.http.root", config.root());
    }

    /**
     * The configured path, under this one unless it begins with a slash.
     *
     * @throws IllegalStateException naming {@code key} when a segment is a dot-segment or has a character other than
     *                               letters, digits and {@code . _ ~ -}
     */
    public BasePath resolve(String key, String configured) {
        String path = configured.trim();
        List<String> segments = Arrays.stream((path.startsWith("/") ? path : prefix + "/" + path).split("/"))
                .filter(segment -> !segment.isEmpty()).toList();
        for (String segment : segments) {
            if (!SEGMENT.matcher(segment).matches() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalStateException(key + " is '" + configured + "': a path's segments are letters, "
                        + "digits and . _ ~ - (no . or .. segments)");
            }
        }
        return new BasePath(segments.isEmpty() ? "" : "/" + String.join("/", segments));
    }

    /** A route's path under this one; {@code path} begins with a slash. */
    public String path(String path) {
        return prefix + path;
    }

    public boolean isServerRoot() {
        return prefix.isEmpty();
    }

    /** True when {@code other} is this path or lies under it, segment by segment. */
    public boolean contains(BasePath other) {
        return isServerRoot() || other.prefix.equals(prefix) || other.prefix.startsWith(prefix + "/");
    }

    /** The path as a user writes it: {@code /} for the server's root. */
    @Override
    public String toString() {
        return isServerRoot() ? "/" : prefix;
    }
}
