package dev.aguistate.testing;

import dev.aguistate.store.StoreServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import java.time.Duration;
import java.util.Map;

/**
 * Puts a {@link FaultyTcpProxy} in front of the Redis or PostgreSQL of the store tests (init argument {@code kind}:
 * {@code redis} or {@code postgres}) before the application starts, and points {@code agui.store.*} at it, with a
 * short {@code agui.store.timeout}. Where the server does not answer (see {@link StoreServer}), the application
 * keeps its threads in memory and {@link #assumeServer()} skips the tests.
 */
public class FaultyStoreResource implements QuarkusTestResourceLifecycleManager {

    public static final Duration TIMEOUT = Duration.ofSeconds(1);

    private static volatile FaultyTcpProxy proxy;
    private static volatile StoreServer server;

    private String kind;

    /** The proxy between the running application and its store. */
    public static FaultyTcpProxy proxy() {
        if (proxy == null) {
            throw new IllegalStateException("the store proxy runs only under a profile with FaultyStoreResource");
        }
        return proxy;
    }

    /** For {@code @BeforeEach}: skips the test when the store's server did not answer. */
    public static void assumeServer() {
        server.assumeReachable();
    }

    @Override
    public void init(Map<String, String> initArgs) {
        kind = initArgs.get("kind");
    }

    @Override
    public Map<String, String> start() {
        Vertx vertx = Vertx.vertx();
        String url;
        try {
            if (kind.equals("redis")) {
                url = StoreServer.url("AGUI_TEST_REDIS_URL", "redis://127.0.0.1:6379");
                server = StoreServer.probe("Redis", url, Redis.createClient(vertx, url).send(Request.cmd(Command.PING)));
            } else {
                url = StoreServer.url("AGUI_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test");
                server = StoreServer.probe("PostgreSQL", url,
                        PgBuilder.client().connectingTo(url).using(vertx).build().query("SELECT 1").execute());
            }
        } finally {
            vertx.closeAndAwait();
        }
        if (!server.reachable()) {
            return Map.of();
        }
        proxy = FaultyTcpProxy.inFrontOf(url);
        return Map.of("agui.store.kind", kind, "agui.store." + kind + ".url", proxy.url(),
                "agui.store.timeout", TIMEOUT.toMillis() + "ms");
    }

    @Override
    public void stop() {
        if (proxy != null) {
            proxy.close();
            proxy = null;
        }
    }
}
