package dev.aguistate.agent;

import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code ${NAME}}s of an agents file: a secret or a per-deployment address kept out of the file. A name that is
 * not set stops the start, with the name and never a value in the message.
 */
final class Variables {

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_.-]*)}");

    private Variables() {}

    static String expand(String text, Function<String, Optional<String>> variables, String field) {
        Matcher matcher = VARIABLE.matcher(text);
        StringBuilder expanded = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1);
            String value = variables.apply(name).orElseThrow(() -> new IllegalArgumentException(
                    field + ": ${" + name + "} is not set (an environment variable or a configuration property)"));
            matcher.appendReplacement(expanded, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(expanded);
        return expanded.toString();
    }
}
