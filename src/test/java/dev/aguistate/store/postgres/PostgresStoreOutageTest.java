package dev.aguistate.store.postgres;

import dev.aguistate.store.SharedThreadStoreContract;
import dev.aguistate.store.StoreOutageContract;
import dev.aguistate.store.StoreServer;
import dev.aguistate.store.StoreUnavailable;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.store.wiring.ThreadStoreProducer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.aguistate.testing.LogCapture;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.pgclient.PgConnection;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Against the PostgreSQL at {@code AGUI_TEST_POSTGRES_URL}, through a {@link dev.aguistate.testing.FaultyTcpProxy};
 * besides the contract, what the server itself must end when the store's client gave up.
 */
@Isolated
class PostgresStoreOutageTest extends StoreOutageContract {

    private static final String URL = StoreServer.url("AGUI_TEST_POSTGRES_URL",
            "postgresql://postgres@127.0.0.1:5432/test");
    private static final String LOCK_ROW = "SELECT 1 FROM agui_threads WHERE owner = $1 AND thread_id = $2 FOR UPDATE";

    @Override
    protected String serverUrl() {
        return URL;
    }

    @Override
    protected void requireServer(Vertx vertx) {
        StoreServer.probe("PostgreSQL", URL, PgBuilder.client().connectingTo(URL).using(vertx).build()
                .query("SELECT 1").execute()).assumeReachable();
    }

    @Override
    protected Map<String, String> storeProperties(String url) {
        return Map.of("agui.store.kind", "postgres", "agui.store.postgres.url", url);
    }

    /** Without statement_timeout, the commit would wait for the lock and be applied after its caller gave up. */
    @Test
    void aCommitWaitingLongerThanTheTimeoutForARowLockIsEndedByTheServerNotAppliedLater() {
        ThreadKey id = newId();
        commit(thread(id, "{\"v\":1}"), 0);
        PgConnection holder = PgConnection.connectAndAwait(vertx, PgConnectOptions.fromUri(URL));
        try {
            holder.query("BEGIN").executeAndAwait();
            holder.preparedQuery(LOCK_ROW).executeAndAwait(Tuple.of(id.owner(), id.threadId()));
            int holderPid = holder.processId();

            assertInstanceOf(StoreUnavailable.class, failureOf(store.commit(new ThreadCommit(
                    thread(id, "{\"v\":2}"), 1, List.of()))));

            SharedThreadStoreContract.awaitUntil(() -> waitingFor(holder, holderPid) == 0,
                    "the server ends the waiting commit");
            holder.query("ROLLBACK").executeAndAwait();
        } finally {
            holder.closeAndAwait();
        }
        assertEquals(1, store.load(id).await().atMost(BOUND).orElseThrow().version());
    }

    /**
     * Without idle_in_transaction_session_timeout, a transaction whose client went silent in its middle would keep
     * its row locks, and the thread could not be committed, until the server's TCP gave up: hours.
     */
    @Test
    void aTransactionWhoseClientWentSilentReleasesItsLocks() {
        ThreadKey id = newId();
        commit(thread(id, "{\"v\":1}"), 0);
        PgConnection silent = PgConnection.connectAndAwait(vertx, ThreadStoreProducer.postgresOptions(config()));
        silent.query("BEGIN").executeAndAwait();
        silent.preparedQuery(LOCK_ROW).executeAndAwait(Tuple.of(id.owner(), id.threadId()));

        proxy.failOver();

        awaitAnswer(() -> store.commit(new ThreadCommit(thread(id, "{\"v\":2}"), 1, List.of())),
                "the silent transaction is ended and the thread can be committed");
        assertEquals(json("{\"v\":2}"), store.load(id).await().atMost(BOUND).orElseThrow().state());
    }

    /**
     * Calls that fail while their connection is being made leave nothing behind that fails again later, whichever
     * comes first, the call's time limit or the connection's failure: nothing is logged as an error, neither while
     * the server is down or silent, nor when it comes back, nor when the client closes (the pool's own statements
     * logged an {@code IllegalStateException: Result is already complete} for each call; see PooledStatements).
     */
    @Test
    void callsThatFailWaitingForAConnectionLogNoError() throws Exception {
        try (LogCapture log = LogCapture.atLeast(Level.SEVERE)) {
            proxy.down();
            assertAllFailWithStoreUnavailable(loads(8));
            // the silent server's calls fail after the time limit, counted from after the first ones started
            proxy.stall();
            assertAllFailWithStoreUnavailable(loads(8));
            proxy.cut(); // the connections made during the stall fail now

            proxy.pass();
            awaitAnswer(() -> store.load(newId()), "the store serves again");
            stop();

            assertEquals(List.of(), log.lines());
        }
    }

    private List<Uni<?>> loads(int count) {
        return IntStream.range(0, count).<Uni<?>>mapToObj(n -> store.load(newId())).toList();
    }

    /** How many sessions wait for a lock that the session {@code holderPid} holds. */
    private static long waitingFor(SqlConnection any, int holderPid) {
        return any.preparedQuery("SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))")
                .executeAndAwait(Tuple.of(holderPid)).iterator().next().getLong(0);
    }
}
