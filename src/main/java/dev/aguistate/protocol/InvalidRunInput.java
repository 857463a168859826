package dev.aguistate.protocol;

/**
 * A run request that cannot be accepted. {@code malformedJson} distinguishes text that is not JSON at all
 * from JSON of the wrong shape; the message names the offending field and never echoes internals.
 */
public final class InvalidRunInput extends RuntimeException {

    private final boolean malformedJson;

    private InvalidRunInput(String message, boolean malformedJson) {
        super(message, null, false, false);
        this.malformedJson = malformedJson;
    }

    public static InvalidRunInput malformedJson(String message) {
        return new InvalidRunInput(message, true);
    }

    public static InvalidRunInput invalid(String message) {
        return new InvalidRunInput(message, false);
    }

    public boolean malformedJson() {
        return malformedJson;
    }
}
