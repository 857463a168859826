package dev.aguistate.tools.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.tools.TokenForwarding;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tool that is one HTTP request (docs/tools.md): the arguments fill the URL's {@code {param}} placeholders; the
 * others go as the JSON body (POST, PUT, PATCH) or as query parameters (GET, DELETE); the response body, cut to the
 * result limit, is the result, and a status other than 2xx is a tool error.
 *
 * @param parameters the arguments' JSON Schema, shown to the LLM
 * @param headers    sent with every request; never logged
 * @param forwarding whether the caller's own token goes with each request
 */
public record HttpTool(String name, String description, String method, String url, JsonNode parameters,
                       Map<String, String> headers, TokenForwarding forwarding, Duration timeout) {

    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");
    static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z0-9_-]+)}");

    public HttpTool {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("tool name must match [A-Za-z0-9_-]{1,64}: " + name);
        }
        method = method == null ? "GET" : method.toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw new IllegalArgumentException("HTTP tool " + name + ": method must be one of " + METHODS);
        }
        Objects.requireNonNull(url, "url of HTTP tool " + name);
        URI parsed = URI.create(PLACEHOLDER.matcher(url).replaceAll("x"));
        if (!("http".equals(parsed.getScheme()) || "https".equals(parsed.getScheme()))) {
            throw new IllegalArgumentException("HTTP tool " + name + ": url must be http or https: " + url);
        }
        if (parameters != null && !parameters.isObject()) {
            throw new IllegalArgumentException("HTTP tool " + name + ": parameters must be a JSON Schema object");
        }
        headers = Map.copyOf(headers);
        forwarding = forwarding == null ? TokenForwarding.NONE : forwarding;
        if (forwarding != TokenForwarding.NONE
                && headers.keySet().stream().anyMatch(header -> header.equalsIgnoreCase("Authorization"))) {
            throw new IllegalArgumentException("HTTP tool " + name
                    + ": forwardUserToken sets the Authorization header, which headers set too; keep one");
        }
        timeout = timeout == null ? Duration.ofSeconds(30) : timeout;
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("HTTP tool " + name + ": timeout must be positive");
        }
        JsonNode properties = parameters == null ? null : parameters.get("properties");
        if (properties != null && properties.isObject()) {
            placeholders(url).stream().filter(placeholder -> !properties.has(placeholder)).findFirst()
                    .ifPresent(placeholder -> {
                        throw new IllegalArgumentException("HTTP tool " + name + ": url placeholder {" + placeholder
                                + "} is not one of the parameters' properties");
                    });
        }
    }

    public static Builder builder(String name, String method, String url) {
        return new Builder(name, method, url);
    }

    /** The names of the URL's placeholders, in order. */
    static Set<String> placeholders(String url) {
        Set<String> names = new LinkedHashSet<>();
        Matcher matcher = PLACEHOLDER.matcher(url);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }

    boolean sendsBody() {
        return method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    }

    /** The header values are left out: they may be secrets. */
    @Override
    public String toString() {
        return "HttpTool[" + name + ": " + method + " " + url + ", headers " + headers.keySet() + "]";
    }

    public static final class Builder {
        private final String name;
        private final String method;
        private final String url;
        private String description;
        private JsonNode parameters;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private TokenForwarding forwarding = TokenForwarding.NONE;
        private Duration timeout;

        private Builder(String name, String method, String url) {
            this.name = name;
            this.method = method;
            this.url = url;
        }

        public Builder description(String text) {
            this.description = text;
            return this;
        }

        public Builder parameters(JsonNode schema) {
            this.parameters = schema;
            return this;
        }

        public Builder header(String header, String value) {
            headers.put(header, value);
            return this;
        }

        public Builder forwardUserToken(TokenForwarding how) {
            this.forwarding = how;
            return this;
        }

        public Builder timeout(Duration limit) {
            this.timeout = limit;
            return this;
        }

        public HttpTool build() {
            return new HttpTool(name, description, method, url, parameters, headers, forwarding, timeout);
        }
    }
}
