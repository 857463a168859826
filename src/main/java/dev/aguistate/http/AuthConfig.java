package dev.aguistate.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;
import java.util.Optional;

/**
 * Who may call ({@code agui.auth.*}). Signed tokens are verified with the standard MicroProfile JWT keys
 * ({@code mp.jwt.verify.publickey.location}, {@code mp.jwt.verify.issuer}, {@code mp.jwt.verify.audiences},
 * {@code mp.jwt.verify.clock.skew}); these keys say which of a token's claims name the user and the tenant.
 */
@ConfigMapping(prefix = "agui.auth")
public interface AuthConfig {

    /**
     * API key → user id, e.g. {@code agui.auth.api-keys.k3y=alice}; sent as {@code Authorization: Bearer k3y}.
     * Empty (the default), and no token key configured: one anonymous user, no key needed.
     */
    Map<String, String> apiKeys();

    Jwt jwt();

    interface Jwt {

        /**
         * The claim whose value is the user id: a string or a number, except {@code sub}, which RFC 7519 makes a
         * string and the token verifier refuses as a number.
         */
        @WithDefault("sub")
        String userClaim();

        /**
         * The claim naming the user's tenant; when set, a token without it is refused, and threads and the
         * {@code app:} scope are partitioned by tenant.
         */
        Optional<String> tenantClaim();
    }
}
