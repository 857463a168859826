package dev.aguistate.threads;

import io.quarkus.runtime.Startup;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.redis.client.RedisOptions;
import io.vertx.sqlclient.PoolOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The {@link ThreadStore} that {@code agui.store.kind} names. It is made at start-up, so that a missing URL or an
 * unreachable PostgreSQL stops the server at once rather than failing its first run.
 */
@Singleton
class ThreadStoreProducer {

    private static final Logger LOG = Logger.getLogger(ThreadStoreProducer.class);

    /** Expired threads are invisible at once; this only frees their space. */
    private static final Duration CLEAN_UP_EVERY = Duration.ofMinutes(1);
    private static final Duration MIGRATION_TIMEOUT = Duration.ofMinutes(1);
    /** The Redis client's default queue for a free connection (24) would fail runs under a burst of load. */
    private static final int REDIS_MAX_WAITING = 1024;

    private final Vertx vertx;
    private long cleanUpTimer = -1;

    ThreadStoreProducer(Vertx vertx) {
        this.vertx = vertx;
    }

    @Produces
    @ApplicationScoped
    @Startup
    ThreadStore threadStore(StoreConfig config) {
        LOG.infof("threads are stored in %s", config.kind().name().toLowerCase());
        return switch (config.kind()) {
            case MEMORY -> memory(config);
            case REDIS -> redis(config);
            case POSTGRES -> postgres(config);
        };
    }

    private ThreadStore memory(StoreConfig config) {
        InMemoryThreadStore store = new InMemoryThreadStore(Clock.systemUTC(), config.ttl(),
                config.memory().maxThreads());
        cleanUpTimer = vertx.setPeriodic(CLEAN_UP_EVERY.toMillis(), timer -> store.evictExpired());
        return store;
    }

    private ThreadStore redis(StoreConfig config) {
        RedisOptions options = new RedisOptions()
                .setConnectionString(required(config.redis().url(), "redis"))
                .setMaxPoolWaiting(REDIS_MAX_WAITING);
        return new RedisThreadStore(Redis.createClient(vertx, options), config.ttl());
    }

    private ThreadStore postgres(StoreConfig config) {
        PgConnectOptions options = PgConnectOptions.fromUri(required(config.postgres().url(), "postgres"));
        config.postgres().user().ifPresent(options::setUser);
        config.postgres().password().ifPresent(options::setPassword);
        // Named so that its metrics (sql_pool_*) tell it apart from any other pool.
        Pool pool = PgBuilder.pool().with(new PoolOptions().setName("agui-threads")).connectingTo(options)
                .using(vertx).build();
        // Start-up is not on an event loop, so it may wait for the schema that every request needs.
        new PostgresMigrator().migrate(pool).await().atMost(MIGRATION_TIMEOUT);
        PostgresThreadStore store = new PostgresThreadStore(pool, config.ttl());
        cleanUpTimer = vertx.setPeriodic(CLEAN_UP_EVERY.toMillis(), timer -> store.deleteExpired().subscribe()
                .with(deleted -> LOG.debugf("deleted %d expired threads", deleted),
                        failure -> LOG.warn("deleting expired threads failed; retrying later", failure)));
        return store;
    }

    private static String required(Optional<String> url, String kind) {
        return url.orElseThrow(() -> new IllegalStateException(
                "agui.store.kind=" + kind + " needs agui.store." + kind + ".url (environment variable AGUI_STORE_"
                        + kind.toUpperCase() + "_URL)"));
    }

    void close(@Disposes ThreadStore store) throws Exception {
        vertx.cancelTimer(cleanUpTimer);
        if (store instanceof AutoCloseable client) {
            client.close();
        }
    }
}
