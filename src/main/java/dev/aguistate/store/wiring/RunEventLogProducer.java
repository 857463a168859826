package dev.aguistate.store.wiring;

import dev.aguistate.store.OutageLog;
import dev.aguistate.store.LocalThreadSignals;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.ThreadSignals;
import dev.aguistate.store.StoreConfig;
import dev.aguistate.store.postgres.PostgresRunEventLog;
import dev.aguistate.store.postgres.PostgresThreadSignals;
import dev.aguistate.store.redis.RedisRunEventLog;
import dev.aguistate.store.redis.RedisThreadSignals;
import dev.aguistate.store.memory.InMemoryRunEventLog;
import io.quarkus.runtime.Startup;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The {@link RunEventLog} and {@link ThreadSignals} of the store that {@code agui.store.kind} names, made at start-up
 * like the thread backend (whose start-up also brought the PostgreSQL schema up to date). For PostgreSQL, both
 * share a pool of their own, so that streaming events never waits behind thread commits, and one listening
 * connection.
 */
@Singleton
class RunEventLogProducer {

    private static final Logger LOG = Logger.getLogger(RunEventLogProducer.class);

    /** Expired logs are invisible at once; this only frees their space. */
    private static final Duration CLEAN_UP_EVERY = Duration.ofMinutes(1);
    private static final OutageLog CLEAN_UPS = new OutageLog(LOG, "deleting expired run logs",
            "expired ones are invisible already; it is tried again every " + CLEAN_UP_EVERY.toSeconds() + " s");
    /** The in-memory logs' share of the maximum heap when {@code agui.store.run-log.memory-max-bytes} is not set. */
    private static final int HEAP_SHARE_DIVISOR = 16;
    private static final long RELISTEN_AFTER_MILLIS = 1000;

    private final Vertx vertx;
    private final StoreConfig config;
    private long cleanUpTimer = -1;
    private Pool pool;
    private PgSubscriber subscriber;

    RunEventLogProducer(Vertx vertx, StoreConfig config) {
        this.vertx = vertx;
        this.config = config;
    }

    @Produces
    @ApplicationScoped
    @Startup
    RunEventLog runEventLog() {
        StoreConfig.RunLog runLog = config.runLog();
        return switch (config.kind()) {
            case MEMORY -> memory(runLog);
            case REDIS -> new RedisRunEventLog(vertx, ThreadStoreProducer.redisOptions(config), runLog.maxEvents(),
                    runLog.idleTtl(), config.timeout(), config.redis().followConnections());
            case POSTGRES -> postgres(runLog);
        };
    }

    @Produces
    @ApplicationScoped
    @Startup
    ThreadSignals threadSignals() {
        return switch (config.kind()) {
            case MEMORY -> new LocalThreadSignals();
            case REDIS -> new RedisThreadSignals(vertx, ThreadStoreProducer.redisOptions(config), config.timeout());
            case POSTGRES -> new PostgresThreadSignals(pool(), subscriber(), config.timeout());
        };
    }

    private RunEventLog memory(StoreConfig.RunLog runLog) {
        long maxBytes = runLog.memoryMaxBytes().orElseGet(() -> Runtime.getRuntime().maxMemory() / HEAP_SHARE_DIVISOR);
        LOG.infof("run event logs hold at most %d events each and %d bytes together", runLog.maxEvents(), maxBytes);
        InMemoryRunEventLog log = new InMemoryRunEventLog(Clock.systemUTC(), runLog.idleTtl(), runLog.maxEvents(),
                maxBytes);
        cleanUpTimer = vertx.setPeriodic(CLEAN_UP_EVERY.toMillis(), timer -> log.evictExpired());
        return log;
    }

    private RunEventLog postgres(StoreConfig.RunLog runLog) {
        PostgresRunEventLog log = new PostgresRunEventLog(pool(), subscriber(), runLog.maxEvents(), runLog.idleTtl(),
                config.timeout());
        cleanUpTimer = vertx.setPeriodic(CLEAN_UP_EVERY.toMillis(), timer -> log.deleteExpired().subscribe()
                .with(deleted -> {
                            CLEAN_UPS.succeeded();
                            LOG.debugf("deleted %d entries of expired run logs", deleted);
                        },
                        failure -> CLEAN_UPS.failed("the periodic clean-up", failure)));
        return log;
    }

    /** Named so that its metrics (sql_pool_*) tell it apart from the threads' pool. */
    private synchronized Pool pool() {
        if (pool == null) {
            PoolOptions pooling = new PoolOptions().setName("agui-run-logs")
                    .setConnectionTimeout(Math.toIntExact(config.timeout().toMillis()))
                    .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS);
            pool = PgBuilder.pool().with(pooling).connectingTo(ThreadStoreProducer.postgresOptions(config))
                    .using(vertx).build();
        }
        return pool;
    }

    /** Connected before start-up goes on; after a lost connection, it connects and listens again every second. */
    private synchronized PgSubscriber subscriber() {
        if (subscriber == null) {
            subscriber = PgSubscriber.subscriber(vertx, ThreadStoreProducer.postgresOptions(config))
                    .reconnectPolicy(retries -> RELISTEN_AFTER_MILLIS);
            subscriber.connect().await().atMost(config.timeout());
        }
        return subscriber;
    }

    void close(@Disposes RunEventLog log) throws Exception {
        vertx.cancelTimer(cleanUpTimer);
        if (log instanceof AutoCloseable client) {
            client.close();
        }
    }

    void close(@Disposes ThreadSignals signals) throws Exception {
        if (signals instanceof AutoCloseable client) {
            client.close();
        }
    }

    @PreDestroy
    synchronized void closeShared() {
        if (subscriber != null) {
            subscriber.closeAndForget();
        }
        if (pool != null) {
            pool.closeAndForget();
        }
    }
}
