package dev.aguistate.store.postgres;

import dev.aguistate.store.SharedThreadStoreContract;
import dev.aguistate.store.StoreServer;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadStore;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Against the PostgreSQL at {@code AGUI_TEST_POSTGRES_URL}; .ci/run starts one. */
class PostgresThreadStoreTest extends SharedThreadStoreContract {

    private static final String URL = StoreServer.url("AGUI_TEST_POSTGRES_URL",
            "postgresql://postgres@127.0.0.1:5432/test");
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static StoreServer server;
    private static Vertx vertx;
    private static Pool pool;
    private static PostgresThreadStore store;

    @BeforeAll
    static void connect() {
        vertx = Vertx.vertx();
        pool = pool(PgConnectOptions.fromUri(URL));
        store = new PostgresThreadStore(pool, Duration.ofHours(1), MAX_THREAD_BYTES);
        server = StoreServer.probe("PostgreSQL", URL, pool.query("SELECT 1").execute());
        if (server.reachable()) {
            new PostgresMigrator().migrate(pool).await().atMost(WAIT);
        }
    }

    @BeforeEach
    void requireServer() {
        server.assumeReachable();
    }

    @AfterAll
    static void disconnect() {
        store.close();
        vertx.closeAndAwait();
    }

    @Override
    protected ThreadStore store() {
        return store;
    }

    @Override
    protected ThreadStore replica(Duration ttl) {
        return new PostgresThreadStore(pool, ttl, MAX_THREAD_BYTES);
    }

    @Test
    void theCleanUpDeletesExpiredThreads() {
        PostgresThreadStore shortLived = new PostgresThreadStore(pool, Duration.ofMillis(300), MAX_THREAD_BYTES);
        StoredThread thread = thread(newId(), json("{}"), List.of());
        shortLived.commit(new ThreadCommit(thread, 0, List.of())).await().atMost(WAIT);
        awaitUntil(() -> store.list(thread.owner(), 0, 10).await().atMost(WAIT).isEmpty(), "the thread expires");

        assertTrue(shortLived.deleteExpired().await().atMost(WAIT) >= 1);

        assertEquals(0, pool.preparedQuery("SELECT count(*) FROM agui_threads WHERE thread_id = $1")
                .execute(Tuple.of(thread.threadId())).await().atMost(WAIT).iterator().next().getLong(0));
    }

    @Test
    void migrationsApplyOnceWhenTwoReplicasStartTogetherAndAgainLater() {
        String schema = "agui_migration_test_" + UUID.randomUUID().toString().replace("-", "");
        pool.query("CREATE SCHEMA " + schema).execute().await().atMost(WAIT);
        Pool first = pool(PgConnectOptions.fromUri(URL).addProperty("search_path", schema));
        Pool second = pool(PgConnectOptions.fromUri(URL).addProperty("search_path", schema));
        try {
            Uni.join().all(new PostgresMigrator().migrate(first), new PostgresMigrator().migrate(second))
                    .andFailFast().await().atMost(WAIT);
            new PostgresMigrator().migrate(first).await().atMost(WAIT);

            assertEquals(List.of(1, 2, 3, 4, 5), column(first, "SELECT version FROM agui_schema_migrations ORDER BY version"));
            assertEquals(List.of("agui_run_events", "agui_run_logs", "agui_schema_migrations", "agui_scopes",
                            "agui_summary_locks", "agui_thread_locks", "agui_threads"),
                    column(first, """
                            SELECT table_name::text FROM information_schema.tables
                            WHERE table_schema = current_schema() ORDER BY table_name"""));
        } finally {
            first.closeAndAwait();
            second.closeAndAwait();
            pool.query("DROP SCHEMA " + schema + " CASCADE").execute().await().atMost(WAIT);
        }
    }

    private static Pool pool(PgConnectOptions options) {
        return PgBuilder.pool().connectingTo(options).using(vertx).build();
    }

    private static List<Object> column(Pool pool, String query) {
        return StreamSupport.stream(pool.query(query).execute().await().atMost(WAIT).spliterator(), false)
                .map(row -> row.getValue(0)).toList();
    }
}
