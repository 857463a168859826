package dev.aguistate.http;

import dev.aguistate.session.Caller;
import dev.aguistate.tools.CallerCredential;
import io.quarkus.runtime.Startup;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

/**
 * Who is calling: the one place a request's identity comes from, and only from its {@code Authorization: Bearer}
 * header — never from the body, {@code forwardedProps} or another header. The bearer is a configured API key, or a
 * JWT verified against the {@code mp.jwt.verify.*} keys (signature, issuer, audience, expiry and not-before with
 * {@code mp.jwt.verify.clock.skew}); both may be configured at once. With neither, everyone is the one anonymous
 * user. Threads belong to callers: one never sees, continues or deletes another's thread.
 *
 * <p>Made at start-up, so that a token key location that cannot be read stops the start instead of failing requests.
 */
@Startup
@ApplicationScoped
public class UserResolver {

    private static final Logger LOG = Logger.getLogger(UserResolver.class);
    private static final String BEARER = "Bearer ";

    private final Map<String, String> apiKeys;
    private final AuthConfig.Jwt claims;
    private final JWTParser tokens;
    private final boolean tokensConfigured;

    @Inject
    UserResolver(AuthConfig config, JWTParser tokens, JWTAuthContextInfo tokenKeys) {
        this.apiKeys = config.apiKeys();
        this.claims = config.jwt();
        this.tokens = tokens;
        this.tokensConfigured = tokenKeys.getPublicKeyLocation() != null || tokenKeys.getPublicKeyContent() != null
                || tokenKeys.getPublicVerificationKey() != null;
    }

    /**
     * The caller an {@code Authorization} header proves; empty when API keys or tokens are configured and it proves
     * none. A token is verified on a worker thread: fetching a JWKS blocks.
     */
    public Uni<Optional<Caller>> resolve(String authorization) {
        if (apiKeys.isEmpty() && !tokensConfigured) {
            return Uni.createFrom().item(Optional.of(Caller.ANONYMOUS));
        }
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Uni.createFrom().item(Optional.empty());
        }
        String bearer = authorization.substring(BEARER.length()).trim();
        String keyUser = apiKeys.get(bearer);
        if (keyUser != null) {
            return Uni.createFrom().item(Optional.of(new Caller(keyUser, null,
                    new CallerCredential(CallerCredential.Kind.API_KEY, bearer))));
        }
        if (!tokensConfigured) {
            return Uni.createFrom().item(Optional.empty());
        }
        return Uni.createFrom().item(() -> verified(bearer)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private Optional<Caller> verified(String token) {
        JsonWebToken jwt;
        try {
            jwt = tokens.parse(token);
        } catch (ParseException refused) {
            LOG.debugf("a bearer token was refused: %s", refused.getMessage());
            return Optional.empty();
        }
        Optional<String> user = claim(jwt, claims.userClaim());
        Optional<String> tenant = claims.tenantClaim().flatMap(name -> claim(jwt, name));
        if (user.isEmpty() || (claims.tenantClaim().isPresent() && tenant.isEmpty())) {
            LOG.debugf("a verified token lacks the user claim %s or the tenant claim %s", claims.userClaim(),
                    claims.tenantClaim().orElse("(none)"));
            return Optional.empty();
        }
        return Optional.of(new Caller(user.get(), tenant.orElse(null),
                new CallerCredential(CallerCredential.Kind.SIGNED_TOKEN, token)));
    }

    /** A claim's value as an id: a non-empty string, or a number (some providers number their tenants). */
    private static Optional<String> claim(JsonWebToken jwt, String name) {
        Object value = jwt.getClaim(name);
        if (value instanceof JsonString string) {
            value = string.getString();
        } else if (value instanceof JsonNumber number) {
            value = number.toString();
        }
        return value instanceof String || value instanceof Number
                ? Optional.of(value.toString()).filter(id -> !id.isBlank())
                : Optional.empty();
    }

    static ErrorBody unauthorized() {
        return new ErrorBody(401, "unauthorized",
                "send a valid API key or signed token as 'Authorization: Bearer <key or token>'");
    }
}
