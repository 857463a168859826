package dev.aguistate.tools;

import java.util.Optional;

/**
 * Whether a tool that reaches another service sends the caller's own credential there as
 * {@code Authorization: Bearer …}, so that the service acts as that user. A caller's signed token is forwarded when
 * asked; one of this server's API keys only when that is asked too, since it is a secret of this server rather than a
 * token meant for other services.
 */
public enum TokenForwarding {
    /** Only the configured headers are sent. */
    NONE,
    /** A caller's verified JWT is sent; an API-key caller's call is refused. */
    SIGNED_TOKENS,
    /** A caller's verified JWT or API key is sent. */
    SIGNED_TOKENS_AND_API_KEYS;

    /**
     * The {@code Authorization} value a call of this caller carries: empty when nothing is forwarded.
     *
     * @throws ToolFailure when a credential should be forwarded and the caller has none that may be (anonymous, or
     *                     an API key without {@link #SIGNED_TOKENS_AND_API_KEYS}): the call is not made at all, rather
     *                     than made without the user's identity
     */
    public Optional<String> authorization(Optional<CallerCredential> caller, String tool) throws ToolFailure {
        if (this == NONE) {
            return Optional.empty();
        }
        if (caller.isEmpty()) {
            throw new ToolFailure(ToolFailure.Kind.INVOCATION_FAILED, "tool " + tool
                    + " acts as the signed-in user, and this request has no signed-in user", null);
        }
        if (caller.get().kind() == CallerCredential.Kind.API_KEY && this != SIGNED_TOKENS_AND_API_KEYS) {
            throw new ToolFailure(ToolFailure.Kind.INVOCATION_FAILED, "tool " + tool
                    + " acts as the signed-in user, and forwards signed tokens only; this request came with an API key",
                    null);
        }
        return Optional.of("Bearer " + caller.get().bearer());
    }
}
