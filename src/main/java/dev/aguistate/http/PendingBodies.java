package dev.aguistate.http;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The memory held by request bodies that have not arrived whole, counted for the whole server and per client
 * address. Without a bound, clients that start bodies and stall (a few bytes short of the end, for the whole body
 * timeout) filled the heap until the server failed and did not recover; with it, what cannot be held is refused at
 * once: over the client's share with 429, over the server's with 503, both with {@code Retry-After}, and the
 * connection closes.
 *
 * <p>A client is its address as the server sees it: behind a reverse proxy, every client is the proxy unless
 * {@code quarkus.http.proxy.proxy-address-forwarding} lets the server read the forwarded address.
 */
@ApplicationScoped
public class PendingBodies {

    private static final Logger LOG = Logger.getLogger(PendingBodies.class);
    private static final int HEAP_SHARE_DIVISOR = 16;

    private final long maxBytes;
    private final long maxBytesPerClient;
    private final AtomicLong held;
    private final ConcurrentHashMap<String, Long> heldByClient = new ConcurrentHashMap<>();

    PendingBodies(HttpConfig config, MeterRegistry meters) {
        this.maxBytes = config.pendingBodies().maxBytes()
                .orElseGet(() -> Runtime.getRuntime().maxMemory() / HEAP_SHARE_DIVISOR);
        this.maxBytesPerClient = config.pendingBodies().maxBytesPerClient();
        if (maxBytesPerClient < config.maxRequestBytes() || maxBytes < config.maxRequestBytes()) {
            throw new IllegalStateException("agui.http.pending-bodies.max-bytes and max-bytes-per-client must each be "
                    + "at least agui.http.max-request-bytes (" + config.maxRequestBytes() + "), or no body of the "
                    + "largest size could ever be read");
        }
        this.held = meters.gauge("agui.http.pending.body.bytes", new AtomicLong());
        LOG.infof("unfinished request bodies may hold %d bytes together, %d per client address", maxBytes,
                maxBytesPerClient);
    }

    /** What one body holds, from its client's share and the server's; {@link #release} gives it all back. */
    public final class Share {

        private final String client;
        private long bytes;

        private Share(String client) {
            this.client = client;
        }

        /** Takes {@code more} bytes for the body, or refuses them (taking nothing) with the error to answer. */
        public Optional<ErrorBody> take(long more) {
            boolean[] overClient = {false};
            heldByClient.compute(client, (address, now) -> {
                long before = now == null ? 0 : now;
                overClient[0] = before + more > maxBytesPerClient;
                return overClient[0] ? now : Long.valueOf(before + more);
            });
            if (overClient[0]) {
                return Optional.of(new ErrorBody(429, "too_many_unfinished_requests", "this client's unfinished "
                        + "request bodies would hold more than " + maxBytesPerClient + " bytes "
                        + "(agui.http.pending-bodies.max-bytes-per-client); finish or close them and try again"));
            }
            if (held.addAndGet(more) > maxBytes) {
                held.addAndGet(-more);
                giveBack(more);
                return Optional.of(new ErrorBody(503, "server_busy", "the server holds as many unfinished request "
                        + "bodies as it may (agui.http.pending-bodies.max-bytes); try again"));
            }
            bytes += more;
            return Optional.empty();
        }

        /** Gives back all the body holds; again, nothing. */
        public void release() {
            if (bytes > 0) {
                held.addAndGet(-bytes);
                giveBack(bytes);
                bytes = 0;
            }
        }

        private void giveBack(long given) {
            heldByClient.computeIfPresent(client, (address, now) -> now == given ? null : now - given);
        }
    }

    /** A share for a body from {@code client} (its address), holding nothing yet. */
    public Share open(String client) {
        return new Share(client);
    }
}
