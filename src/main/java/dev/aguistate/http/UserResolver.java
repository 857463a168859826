package dev.aguistate.http;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Who is calling. Threads belong to users: one user never sees, continues or deletes another's thread. Without
 * configured API keys everyone is the one anonymous user.
 */
@ApplicationScoped
public class UserResolver {

    static final String ANONYMOUS = "anonymous";

    private final AuthConfig config;

    UserResolver(AuthConfig config) {
        this.config = config;
    }

    /** The user of an {@code Authorization} header; empty when keys are configured and it names none of them. */
    public Optional<String> resolve(String authorization) {
        if (config.apiKeys().isEmpty()) {
            return Optional.of(ANONYMOUS);
        }
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        return Optional.ofNullable(config.apiKeys().get(authorization.substring(7).trim()));
    }

    static ErrorBody unauthorized() {
        return new ErrorBody(401, "unauthorized", "send a valid API key as 'Authorization: Bearer <key>'");
    }
}
