package dev.aguistate.http;

import io.smallrye.config.ConfigMapping;
import java.util.Map;

/** Who may call ({@code agui.auth.*}). */
@ConfigMapping(prefix = "agui.auth")
public interface AuthConfig {

    /**
     * API key → user id, e.g. {@code agui.auth.api-keys.k3y=alice}; sent as {@code Authorization: Bearer k3y}.
     * Empty (the default): one anonymous user, no key needed.
     */
    Map<String, String> apiKeys();
}
