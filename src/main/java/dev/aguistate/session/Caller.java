package dev.aguistate.session;

import dev.aguistate.store.ScopedState;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.tools.CallerCredential;
import java.util.Objects;

/**
 * Who a request comes from, as the server established it from the {@code Authorization} header and nothing else:
 * a user, and the tenant their token names when a tenant claim is configured. Threads (and so their runs), the
 * {@code user:} scope and the {@code app:} scope are keyed by it, so tenants never see each other's threads or shared
 * state, and users never each other's threads or runs.
 *
 * @param tenant     null when the server partitions nothing by tenant
 * @param credential what the header proved them with, handed to their runs for tools that act as them (never stored,
 *                   never logged); null for the anonymous caller
 */
public record Caller(String user, String tenant, CallerCredential credential) {

    /** Everyone, when no API key and no token verification is configured. */
    public static final Caller ANONYMOUS = new Caller("anonymous", null);

    public Caller {
        Objects.requireNonNull(user, "user");
    }

    public Caller(String user, String tenant) {
        this(user, tenant, null);
    }

    /**
     * Whether this is {@link #ANONYMOUS}, everyone at once on a server that identifies nobody; a user that a key or a
     * token names is never it, whatever their id.
     */
    public boolean everyone() {
        return this == ANONYMOUS;
    }

    /**
     * The key a thread's owner and the {@code user:} scope are stored under: the user id as it is without a tenant
     * (what the server stored before tenants existed), else {@code <tenant>/<user>} with {@code %} and {@code /}
     * escaped in the tenant, so that two different (tenant, user) pairs never share a key.
     */
    public String owner() {
        return tenant == null ? user : escapedTenant() + "/" + user;
    }

    /** The caller's thread of that id: each caller has thread ids of their own. */
    public ThreadKey thread(String threadId) {
        return new ThreadKey(owner(), threadId);
    }

    /** The scope that holds the {@code app:} keys: one for everyone, or one per tenant. */
    public String appScope() {
        return tenant == null ? ScopedState.APP_SCOPE : ScopedState.APP_SCOPE + "/" + escapedTenant();
    }

    private String escapedTenant() {
        return tenant.replace("%", "%25").replace("/", "%2F");
    }
}
