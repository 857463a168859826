package dev.aguistate.agent;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A duration as an agents file writes it: {@code 500ms}, {@code 30s}, {@code 2m}, or ISO-8601 ({@code PT30S}). */
final class Durations {

    private static final Pattern SHORT = Pattern.compile("(\\d{1,9})(ms|s|m)");

    private Durations() {}

    static Duration parse(String text, String field) {
        Matcher matcher = SHORT.matcher(text.strip());
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                default -> Duration.ofMinutes(amount);
            };
        }
        try {
            return Duration.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + ": '" + text + "' is not a duration (e.g. 500ms, 30s, 2m)");
        }
    }
}
