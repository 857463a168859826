package dev.aguistate.tools;

import java.util.Objects;

/**
 * The bearer credential the run's request proved its caller with, for tools that act as that user (an MCP server or
 * HTTP tool declared with {@code forwardUserToken}). A run holds its own caller's credential and nobody else's; it is
 * never stored with the thread, and {@link #toString()} hides it, so that no log line can carry it.
 */
public final class CallerCredential {

    /** How the caller proved who they are. */
    public enum Kind {
        /** A JWT the server verified: a token issued to this user, meant to be presented to services. */
        SIGNED_TOKEN,
        /** One of the server's configured API keys: a secret of this server, forwarded only when a tool says so. */
        API_KEY
    }

    private final Kind kind;
    private final String bearer;

    public CallerCredential(Kind kind, String bearer) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.bearer = Objects.requireNonNull(bearer, "bearer");
    }

    public Kind kind() {
        return kind;
    }

    /** The credential itself, as it followed {@code Bearer } in the request. */
    public String bearer() {
        return bearer;
    }

    @Override
    public String toString() {
        return "CallerCredential[" + kind + ", hidden]";
    }
}
