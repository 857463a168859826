package dev.aguistate.store.postgres;

import dev.aguistate.store.ClasspathText;
import dev.aguistate.store.RunLock;
import dev.aguistate.store.SharedThreadStoreContract;
import dev.aguistate.store.StoreServer;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.store.ThreadBackend;
import dev.aguistate.store.ThreadSummary;
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
import java.util.Optional;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Against the PostgreSQL at {@code AGUI_TEST_POSTGRES_URL}; .ci/run starts one. */
@Execution(ExecutionMode.CONCURRENT)
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
    protected ThreadBackend store() {
        return store;
    }

    @Override
    protected ThreadBackend replica(Duration ttl) {
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

            assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8), column(first, "SELECT version FROM agui_schema_migrations ORDER BY version"));
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

    @Test
    void threadsStoredBeforeOwnerKeysKeepTheirOwnerAndIdAfterTheUpgrade() {
        String schema = "agui_upgrade_test_" + UUID.randomUUID().toString().replace("-", "");
        pool.query("CREATE SCHEMA " + schema).execute().await().atMost(WAIT);
        Pool old = pool(PgConnectOptions.fromUri(URL).addProperty("search_path", schema));
        try {
            // a database as the server before V6 left it: its migrations, two threads of two owners, a run's claim
            for (String file : List.of("V1__threads.sql", "V2__thread_meta.sql", "V3__claim_run.sql",
                    "V4__run_events.sql", "V5__thread_summary.sql")) {
                old.query(ClasspathText.read("/db/migrations/" + file)).execute().await().atMost(WAIT);
            }
            old.query("""
                    CREATE TABLE agui_schema_migrations (version integer PRIMARY KEY,
                                                         applied_at timestamptz NOT NULL DEFAULT now());
                    INSERT INTO agui_schema_migrations (version) VALUES (1), (2), (3), (4), (5);
                    INSERT INTO agui_threads (thread_id, owner, agent, state, messages, message_count, version,
                                              created_at, updated_at, expires_at)
                    VALUES ('t-alice', 'acme/alice', 'chat', '{"v":1}', '[]', 0, 3, now(), now(), now() + '1 day'),
                           ('t-bob', 'bob', 'chat', '{"v":2}', '[]', 0, 1, now(), now(), now() + '1 day');
                    INSERT INTO agui_thread_locks (thread_id, token, run_id, expires_at)
                    VALUES ('t-alice', 'token-1', 'run-1', now() + '1 minute')""").execute().await().atMost(WAIT);

            new PostgresMigrator().migrate(old).await().atMost(WAIT);

            PostgresThreadStore upgraded = new PostgresThreadStore(old, Duration.ofHours(1), MAX_THREAD_BYTES);
            ThreadKey alices = new ThreadKey("acme/alice", "t-alice");
            StoredThread kept = upgraded.load(alices).await().atMost(WAIT).orElseThrow();
            assertEquals(json("{\"v\":1}"), kept.state());
            assertEquals(3, kept.version());
            assertEquals(Optional.of(new RunLock(alices, "run-1", "token-1")),
                    upgraded.claim(alices).await().atMost(WAIT), "the live run's claim is its thread owner's");
            assertTrue(upgraded.load(new ThreadKey("bob", "t-alice")).await().atMost(WAIT).isEmpty());
            assertEquals(List.of("t-bob"), upgraded.list("bob", 0, 10).await().atMost(WAIT).stream()
                    .map(ThreadSummary::threadId).toList());
            assertEquals(1, upgraded.commit(new ThreadCommit(thread(new ThreadKey("bob", "t-alice"), json("{}"),
                    List.of()), 0, List.of())).await().atMost(WAIT).version(), "the id is bob's to use too");
        } finally {
            old.closeAndAwait();
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
