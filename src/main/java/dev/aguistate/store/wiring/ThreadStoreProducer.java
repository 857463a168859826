package dev.aguistate.store.wiring;

import dev.aguistate.store.OutageLog;
import dev.aguistate.store.StoreConfig;
import dev.aguistate.store.ThreadBackend;
import dev.aguistate.store.ThreadLocks;
import dev.aguistate.store.ThreadStore;
import dev.aguistate.store.ThreadSummaries;
import dev.aguistate.store.TimedThreadBackend;
import dev.aguistate.store.postgres.PostgresMigrator;
import dev.aguistate.store.postgres.PostgresThreadStore;
import dev.aguistate.store.redis.RedisKeyUpgrade;
import dev.aguistate.store.redis.RedisThreadStore;
import dev.aguistate.store.memory.InMemoryThreadStore;
import io.quarkus.runtime.Startup;
import io.vertx.core.net.NetClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.redis.client.RedisOptions;
import io.vertx.sqlclient.PoolOptions;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The backend that {@code agui.store.kind} names, served as its three ports ({@link ThreadStore},
 * {@link ThreadLocks}, {@link ThreadSummaries}), each a bean of its own so that a caller depends only on what it
 * uses; they are one client on one connection. It is made at start-up, so that a missing URL or an unreachable
 * PostgreSQL stops the server at once rather than failing its first run. Redis and PostgreSQL backends answer
 * within {@code agui.store.timeout} ({@link TimedThreadBackend}), and their connections follow the same timeout.
 */
@Singleton
public class ThreadStoreProducer {

    private static final Logger LOG = Logger.getLogger(ThreadStoreProducer.class);

    /** Expired threads are invisible at once; this only frees their space. */
    private static final Duration CLEAN_UP_EVERY = Duration.ofMinutes(1);
    private static final OutageLog CLEAN_UPS = new OutageLog(LOG, "deleting expired threads",
            "expired ones are invisible already; it is tried again every " + CLEAN_UP_EVERY.toSeconds() + " s");
    private static final Duration MIGRATION_TIMEOUT = Duration.ofMinutes(1);
    /** The Redis client's default queue for a free connection (24) would fail runs under a burst of load. */
    private static final int REDIS_MAX_WAITING = 1024;
    /** The in-memory store's share of the maximum heap when {@code agui.store.memory.max-bytes} is not set. */
    private static final int HEAP_SHARE_DIVISOR = 4;

    private final Vertx vertx;
    private long cleanUpTimer = -1;
    private ThreadBackend backend;

    public ThreadStoreProducer(Vertx vertx) {
        this.vertx = vertx;
    }

    @Produces
    @ApplicationScoped
    @Startup
    ThreadStore threadStore(StoreConfig config) {
        return backend(config);
    }

    @Produces
    @ApplicationScoped
    ThreadLocks threadLocks(StoreConfig config) {
        return backend(config);
    }

    @Produces
    @ApplicationScoped
    ThreadSummaries threadSummaries(StoreConfig config) {
        return backend(config);
    }

    /** The configured backend, made on the first call; the ports are all this one. */
    public synchronized ThreadBackend backend(StoreConfig config) {
        if (backend == null) {
            LOG.infof("threads are stored in %s", config.kind().name().toLowerCase());
            backend = switch (config.kind()) {
                case MEMORY -> memory(config);
                case REDIS -> redis(config);
                case POSTGRES -> postgres(config);
            };
        }
        return backend;
    }

    private ThreadBackend memory(StoreConfig config) {
        long maxBytes = config.memory().maxBytes()
                .orElseGet(() -> Runtime.getRuntime().maxMemory() / HEAP_SHARE_DIVISOR);
        LOG.infof("the in-memory store holds at most %d threads and %d bytes of them", config.memory().maxThreads(),
                maxBytes);
        InMemoryThreadStore store = new InMemoryThreadStore(Clock.systemUTC(), config.ttl(),
                config.memory().maxThreads(), maxBytes, config.maxThreadBytes());
        cleanUpTimer = vertx.setPeriodic(CLEAN_UP_EVERY.toMillis(), timer -> store.evictExpired());
        return store;
    }

    /**
     * Threads stored before threads were keyed by owner are moved first (start-up may wait for it). A Redis that does
     * not answer does not stop the start, as it never did: the server starts not ready, and moves them at its next
     * start.
     */
    private ThreadBackend redis(StoreConfig config) {
        Redis client = Redis.createClient(vertx, redisOptions(config));
        try {
            int moved = new RedisKeyUpgrade(client).moveUnownedThreads().await().atMost(MIGRATION_TIMEOUT);
            if (moved > 0) {
                LOG.infof("moved %d threads stored before threads were keyed by owner to their owners' keys", moved);
            }
        } catch (RuntimeException failure) {
            LOG.warnf("threads stored before threads were keyed by owner were not moved to their owners' keys (%s); "
                    + "they are moved at the next start", failure.toString());
        }
        return new TimedThreadBackend(new RedisThreadStore(client, config.ttl(), config.maxThreadBytes()),
                config.timeout());
    }

    /**
     * The Redis client, following {@code agui.store.timeout}. A connection that has read nothing for twice the
     * timeout is closed: the call waiting on it has timed out by then, and a server that went silent (not down:
     * stalled, or behind a path that drops packets) would otherwise keep the connection, and its place in the pool,
     * for as long as TCP takes to give up (minutes to hours). The pool drops connections idle for half the timeout,
     * looking every quarter of it, so a connection handed out has been idle for at most three quarters of the
     * timeout, and that limit never closes one whose call could still answer in time.
     */
    static RedisOptions redisOptions(StoreConfig config) {
        Duration timeout = config.timeout();
        NetClientOptions network = new NetClientOptions()
                .setConnectTimeout(millis(timeout))
                .setReadIdleTimeout(millis(silence(timeout)))
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
        return new RedisOptions()
                .setConnectionString(required(config.redis().url(), "redis"))
                .setNetClientOptions(network)
                .setMaxPoolWaiting(REDIS_MAX_WAITING)
                .setPoolRecycleTimeout(millis(timeout.dividedBy(2)))
                .setPoolCleanerInterval(millis(timeout.dividedBy(4)));
    }

    private ThreadBackend postgres(StoreConfig config) {
        migrate(postgresServer(config));
        // Named so that its metrics (sql_pool_*) tell it apart from any other pool. A call waits for a connection
        // no longer than it may take at all.
        PoolOptions pooling = new PoolOptions().setName("agui-threads")
                .setConnectionTimeout(millis(config.timeout()))
                .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS);
        Pool pool = PgBuilder.pool().with(pooling).connectingTo(postgresOptions(config)).using(vertx).build();
        PostgresThreadStore store = new PostgresThreadStore(pool, config.ttl(), config.maxThreadBytes());
        cleanUpTimer = vertx.setPeriodic(CLEAN_UP_EVERY.toMillis(), timer -> store.deleteExpired().subscribe()
                .with(deleted -> {
                            CLEAN_UPS.succeeded();
                            LOG.debugf("deleted %d expired threads", deleted);
                        },
                        failure -> CLEAN_UPS.failed("the periodic clean-up", failure)));
        return new TimedThreadBackend(store, config.timeout());
    }

    /**
     * Migrations run on a pool of their own, without the request limits: a migration may rewrite a large table, and
     * may wait for another replica's. Start-up is not on an event loop, so it may wait for the schema that every
     * request needs.
     */
    private void migrate(PgConnectOptions server) {
        Pool migrations = PgBuilder.pool().connectingTo(server).using(vertx).build();
        try {
            new PostgresMigrator().migrate(migrations).await().atMost(MIGRATION_TIMEOUT);
        } finally {
            migrations.closeAndAwait();
        }
    }

    /**
     * The connections that requests use, following {@code agui.store.timeout}: the server itself ends what the
     * client gave up on, a statement running longer than the timeout (a commit waiting for a row lock would
     * otherwise be applied after its run failed), and a transaction whose client went silent in its middle for
     * twice the timeout (its row locks would otherwise block the thread until the server's TCP gives up, hours
     * later). There is no read limit as for Redis: this client closes a connection by asking the server to, which a
     * silent server never does (see docs/reliability.md).
     */
    public static PgConnectOptions postgresOptions(StoreConfig config) {
        Duration timeout = config.timeout();
        PgConnectOptions options = postgresServer(config)
                .addProperty("statement_timeout", Integer.toString(millis(timeout)))
                .addProperty("idle_in_transaction_session_timeout", Integer.toString(millis(silence(timeout))));
        options.setConnectTimeout(millis(timeout));
        return options;
    }

    private static PgConnectOptions postgresServer(StoreConfig config) {
        PgConnectOptions options = PgConnectOptions.fromUri(required(config.postgres().url(), "postgres"));
        config.postgres().user().ifPresent(options::setUser);
        config.postgres().password().ifPresent(options::setPassword);
        return options;
    }

    private static String required(Optional<String> url, String kind) {
        return url.orElseThrow(() -> new IllegalStateException(
                "agui.store.kind=" + kind + " needs agui.store." + kind + ".url (environment variable AGUI_STORE_"
                        + kind.toUpperCase() + "_URL)"));
    }

    /** How long a connection may stay silent before it is given up: the call waiting on it has timed out by then. */
    private static Duration silence(Duration timeout) {
        return timeout.multipliedBy(2);
    }

    private static int millis(Duration duration) {
        return Math.toIntExact(Math.max(1, duration.toMillis()));
    }

    /** Stops the clean-up and closes the backend's client, once all three ports are gone. */
    @PreDestroy
    public synchronized void close() throws Exception {
        vertx.cancelTimer(cleanUpTimer);
        if (backend instanceof AutoCloseable client) {
            client.close();
        }
        backend = null;
    }
}
