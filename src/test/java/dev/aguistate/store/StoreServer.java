package dev.aguistate.store;

import static org.junit.jupiter.api.Assertions.fail;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Assumptions;

/**
 * The Redis or PostgreSQL server of a store test (here, and of the replica tests in {@code dev.aguistate.replicas}).
 * Where none is reachable (a laptop without one), the tests are skipped, and a warning says which server at which
 * URL; CI sets {@code AGUI_REQUIRE_STORES=true}, where an unreachable server fails the tests instead.
 */
public final class StoreServer {

    private static final Logger LOG = Logger.getLogger(StoreServer.class);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

    /** Why the tests are skipped; null when the server answered. */
    private final String unreachable;

    private StoreServer(String unreachable) {
        this.unreachable = unreachable;
    }

    public static String url(String variable, String fallback) {
        return Optional.ofNullable(System.getenv(variable)).filter(url -> !url.isBlank()).orElse(fallback);
    }

    /** Fails at once if the server must be there and is not. */
    public static StoreServer probe(String server, String url, Uni<?> ping) {
        return probe(server, "the " + server + " store tests", url, ping);
    }

    /** As {@link #probe(String, String, Uni)}; {@code tests} names what is skipped, e.g. "the Redis replica tests". */
    public static StoreServer probe(String server, String tests, String url, Uni<?> ping) {
        try {
            ping.await().atMost(PROBE_TIMEOUT);
            return new StoreServer(null);
        } catch (RuntimeException failure) {
            String problem = server + " is not reachable at " + url + ": " + failure;
            if (Boolean.parseBoolean(System.getenv("AGUI_REQUIRE_STORES"))) {
                fail(problem + " (AGUI_REQUIRE_STORES=true)", failure);
            }
            String skipped = "skipping " + tests + "; " + problem
                    + " (set AGUI_REQUIRE_STORES=true to fail instead)";
            LOG.warn(skipped);
            return new StoreServer(skipped);
        }
    }

    public boolean reachable() {
        return unreachable == null;
    }

    /** For {@code @BeforeEach}: skips the test when the server did not answer. */
    public void assumeReachable() {
        Assumptions.assumeTrue(reachable(), unreachable);
    }
}
