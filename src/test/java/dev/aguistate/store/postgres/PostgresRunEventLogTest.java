package dev.aguistate.store.postgres;

import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.RunEventLogContract;
import dev.aguistate.store.ThreadSignals;
import dev.aguistate.store.StoreServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Against the PostgreSQL at {@code AGUI_TEST_POSTGRES_URL}; .ci/run starts one. Two replicas: two pools, two listeners. */
@Execution(ExecutionMode.CONCURRENT)
class PostgresRunEventLogTest extends RunEventLogContract {

    private static final String URL = StoreServer.url("AGUI_TEST_POSTGRES_URL",
            "postgresql://postgres@127.0.0.1:5432/test");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration IDLE_TTL = Duration.ofHours(1);

    private static StoreServer server;
    private static Vertx vertx;
    private static Pool pool;
    private static Pool otherReplicasPool;
    private static PgSubscriber subscriber;
    private static PgSubscriber otherReplicasSubscriber;
    private static PostgresRunEventLog log;
    private static PostgresThreadSignals signals;
    private static PostgresThreadSignals otherReplicasSignals;

    @BeforeAll
    static void connect() {
        vertx = Vertx.vertx();
        pool = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(URL)).using(vertx).build();
        otherReplicasPool = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(URL)).using(vertx).build();
        server = StoreServer.probe("PostgreSQL", URL, pool.query("SELECT 1").execute());
        if (!server.reachable()) {
            return;
        }
        new PostgresMigrator().migrate(pool).await().atMost(WAIT);
        subscriber = PgSubscriber.subscriber(vertx, PgConnectOptions.fromUri(URL));
        otherReplicasSubscriber = PgSubscriber.subscriber(vertx, PgConnectOptions.fromUri(URL));
        log = new PostgresRunEventLog(pool, subscriber, 100_000, IDLE_TTL, TIMEOUT);
        signals = new PostgresThreadSignals(pool, subscriber, TIMEOUT);
        otherReplicasSignals = new PostgresThreadSignals(otherReplicasPool, otherReplicasSubscriber, TIMEOUT);
        subscriber.connect().await().atMost(WAIT);
        otherReplicasSubscriber.connect().await().atMost(WAIT);
    }

    @BeforeEach
    void requireServer() {
        server.assumeReachable();
    }

    @AfterAll
    static void disconnect() {
        vertx.closeAndAwait();
    }

    @Override
    protected RunEventLog log() {
        return log;
    }

    @Override
    protected RunEventLog logKeeping(int maxEvents) {
        return new PostgresRunEventLog(pool, subscriber, maxEvents, IDLE_TTL, TIMEOUT);
    }

    @Override
    protected ThreadSignals threadSignals() {
        return signals;
    }

    @Override
    protected ThreadSignals otherReplicasThreadSignals() {
        return otherReplicasSignals;
    }

    @Test
    void aFollowerOnAnotherReplicaIsWokenByTheNotificationOfAnAppend() {
        PostgresRunEventLog otherReplica = new PostgresRunEventLog(otherReplicasPool, otherReplicasSubscriber, 100,
                IDLE_TTL, TIMEOUT);
        String key = newKey();
        AssertSubscriber<LoggedEvent> follower = otherReplica.follow(key, -1).subscribe()
                .withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        append(otherReplica, key, 0, 1);
        follower.awaitItems(1, WAIT);

        long appended = System.nanoTime();
        append(log, key, 1, 2);
        follower.awaitItems(2, WAIT);

        // the re-read every 2 s would deliver it too, but later
        assertTrue(System.nanoTime() - appended < PostgresRunEventLog.RECHECK_EVERY.toNanos(),
                "woken by the notification, not by the periodic re-read");
        assertEquals(entries(0, 2), follower.getItems());
        follower.cancel();
        awaitUntil(() -> otherReplica.followers() == 0, "a cancelled follower is forgotten");
    }

    @Test
    void theCleanUpDeletesExpiredLogsEntries() {
        String key = newKey();
        append(log, key, 0, 3);
        log.expireAfter(key, Duration.ZERO).await().atMost(WAIT);

        assertTrue(log.deleteExpired().await().atMost(WAIT) >= 3);

        assertEquals(0L, pool.preparedQuery("SELECT count(*) FROM agui_run_events WHERE run_key = $1")
                .execute(Tuple.of(key)).await().atMost(WAIT).iterator().next().getLong(0));
    }

    @Test
    void aFollowOfAnUnreachablePostgresFails() {
        Pool nowhere = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri("postgresql://postgres@127.0.0.1:1/test"))
                .using(vertx).build();
        assertFollowFails(new PostgresRunEventLog(nowhere, subscriber, 100, IDLE_TTL, Duration.ofSeconds(1)));
    }

    @Test
    void anAppendThatFillsTheLogKeepsItsNewestEntries() {
        RunEventLog small = logKeeping(5);
        String key = newKey();

        append(small, key, 0, 12);

        assertEquals(entries(7, 12), small.read(key, -1, 100).await().atMost(WAIT));
        assertEquals(List.of(), small.read(key, 11, 100).await().atMost(WAIT));
    }
}
