package dev.aguistate.store.bench;

import dev.aguistate.store.memory.InMemoryThreadStore;
import dev.aguistate.store.postgres.PostgresMigrator;
import dev.aguistate.store.postgres.PostgresThreadStore;
import dev.aguistate.store.redis.RedisThreadStore;
import dev.aguistate.store.ThreadStore;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The three stores, made as the server makes them, against the Redis and PostgreSQL that the store tests use
 * ({@code AGUI_TEST_REDIS_URL}, {@code AGUI_TEST_POSTGRES_URL}, else the local defaults).
 */
public enum StoreKind {
    MEMORY {
        @Override
        ThreadStore open(Vertx vertx) {
            return new InMemoryThreadStore(Clock.systemUTC(), TTL, MEMORY_MAX_THREADS, MEMORY_MAX_BYTES, MAX_THREAD_BYTES);
        }
    },
    REDIS {
        @Override
        ThreadStore open(Vertx vertx) {
            return new RedisThreadStore(Redis.createClient(vertx, url("AGUI_TEST_REDIS_URL", "redis://127.0.0.1:6379")),
                    TTL, MAX_THREAD_BYTES);
        }
    },
    POSTGRES {
        @Override
        ThreadStore open(Vertx vertx) {
            Pool pool = PgBuilder.pool()
                    .connectingTo(PgConnectOptions.fromUri(
                            url("AGUI_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")))
                    .using(vertx).build();
            new PostgresMigrator().migrate(pool).await().atMost(Duration.ofMinutes(1));
            return new PostgresThreadStore(pool, TTL, MAX_THREAD_BYTES);
        }
    };

    private static final Duration TTL = Duration.ofHours(1);
    private static final int MEMORY_MAX_THREADS = 10_000;
    /** The defaults: 8 MiB a thread, and a quarter of the heap for the in-memory store. */
    private static final long MAX_THREAD_BYTES = 8L << 20;
    private static final long MEMORY_MAX_BYTES = Runtime.getRuntime().maxMemory() / 4;

    abstract ThreadStore open(Vertx vertx);

    private static String url(String variable, String fallback) {
        return Optional.ofNullable(System.getenv(variable)).filter(url -> !url.isBlank()).orElse(fallback);
    }
}
