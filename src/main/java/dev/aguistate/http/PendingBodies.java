package dev.aguistate.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The memory held by request bodies that have not arrived whole, counted for the whole server and per client
 * address. Without a bound, clients that start bodies and stall (a few bytes short of the end, for the whole body
 * timeout) filled the heap until the server failed and did not recover; with it, what cannot be held is refused at
 * once: over the client's share with 429, over the server's with 503, both with {@code Retry-After}, and the
 * connection closes.
 *
 * <p>When the server's bound is full, a client that would hold less than another makes room: the newest body of the
 * client that holds the most is refused (503) in its favour. So clients that fill the bound from many addresses
 * keep each other out, but not a client with a run request of ordinary size.
 *
 * <p>A client is its address as the server sees it: behind a reverse proxy, every client is the proxy unless
 * {@code quarkus.http.proxy.proxy-address-forwarding} lets the server read the forwarded address.
 */
@ApplicationScoped
@Startup
public class PendingBodies {

    private static final Logger LOG = Logger.getLogger(PendingBodies.class);
    private static final int HEAP_SHARE_DIVISOR = 16;

    private final long maxBytes;
    private final long maxBytesPerClient;
    /** What all bodies hold; written under this object's lock, read by the metrics. */
    private final AtomicLong held;
    private final Map<String, Long> heldByClient = new HashMap<>();
    /** Each client's bodies that hold something, oldest first. */
    private final Map<String, ArrayDeque<Share>> holdingByClient = new HashMap<>();

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
        private Runnable onEvicted = () -> { };
        /** Guarded by the PendingBodies' lock. */
        private long bytes;
        private boolean evicted;

        private Share(String client) {
            this.client = client;
        }

        /**
         * What to do when the body is refused to make room for another client's (answer {@link #EVICTED} on the
         * body's own context); set before the body is read.
         */
        public void onEvicted(Runnable evicted) {
            this.onEvicted = evicted;
        }

        /** Takes {@code more} bytes for the body, or refuses them (taking nothing) with the error to answer. */
        public Optional<ErrorBody> take(long more) {
            Share victim;
            synchronized (PendingBodies.this) {
                if (evicted) {
                    return Optional.of(EVICTED);
                }
                long clientHolds = heldByClient.getOrDefault(client, 0L);
                if (clientHolds + more > maxBytesPerClient) {
                    return Optional.of(new ErrorBody(429, "too_many_unfinished_requests", "this client's unfinished "
                            + "request bodies would hold more than " + maxBytesPerClient + " bytes "
                            + "(agui.http.pending-bodies.max-bytes-per-client); finish or close them and try again"));
                }
                victim = held.get() + more <= maxBytes ? null : roomFor(clientHolds + more, more);
                if (held.get() + more > maxBytes && victim == null) {
                    return Optional.of(new ErrorBody(503, "server_busy", "the server holds as many unfinished "
                            + "request bodies as it may (agui.http.pending-bodies.max-bytes); try again"));
                }
                if (victim != null) {
                    victim.evicted = true;
                    victim.giveBack();
                }
                if (bytes == 0) {
                    holdingByClient.computeIfAbsent(client, address -> new ArrayDeque<>()).addLast(this);
                }
                bytes += more;
                held.addAndGet(more);
                heldByClient.merge(client, more, Long::sum);
            }
            if (victim != null) {
                victim.onEvicted.run();
            }
            return Optional.empty();
        }

        /** Gives back all the body holds; again, nothing. */
        public void release() {
            synchronized (PendingBodies.this) {
                giveBack();
            }
        }

        private void giveBack() {
            if (bytes == 0) {
                return;
            }
            held.addAndGet(-bytes);
            long given = bytes;
            heldByClient.computeIfPresent(client, (address, now) -> now == given ? null : now - given);
            ArrayDeque<Share> holding = holdingByClient.get(client);
            holding.remove(this);
            if (holding.isEmpty()) {
                holdingByClient.remove(client);
            }
            bytes = 0;
        }
    }

    /** The answer of a body refused to make room for a client that holds less. */
    public static final ErrorBody EVICTED = new ErrorBody(503, "server_busy", "the server holds as many unfinished "
            + "request bodies as it may (agui.http.pending-bodies.max-bytes), and this client's hold the most; "
            + "try again");

    /**
     * The body whose refusal lets {@code more} bytes in for a client that would then hold {@code wouldHold}: the
     * newest of the client that holds the most, if that client holds more than {@code wouldHold} and its body frees
     * enough; else null. Called under the lock.
     */
    private Share roomFor(long wouldHold, long more) {
        String largest = null;
        long most = wouldHold;
        for (Map.Entry<String, Long> client : heldByClient.entrySet()) {
            if (client.getValue() > most) {
                largest = client.getKey();
                most = client.getValue();
            }
        }
        if (largest == null) {
            return null;
        }
        Share newest = holdingByClient.get(largest).peekLast();
        return held.get() - newest.bytes + more <= maxBytes ? newest : null;
    }

    /** A share for a body from {@code client} (its address), holding nothing yet. */
    public Share open(String client) {
        return new Share(client);
    }
}
