package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.store.SharedThreadStoreContract;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StoreProfiles;
import dev.aguistate.testing.StubResponse;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On PostgreSQL the run can be held where the race was easiest to win, before its first checkpoint: its claim taken,
 * no thread stored. The test holds the row the checkpoint inserts (an uncommitted insert of the same key, in a
 * transaction of its own), so the run waits at its first commit for as long as the test needs.
 */
@QuarkusTest
@TestProfile(StoreProfiles.Users.Postgres.class)
@ExtendWith(StoreProfiles.PostgresReachable.class)
class PostgresLiveRunOwnershipTest extends LiveRunOwnershipContract {

    /** The row alice's first checkpoint will insert, as any thread row; expired, so nobody could read it. */
    private static final String HOLD_ROW = """
            INSERT INTO agui_threads (owner, thread_id, agent, state, messages, message_count, version,
                                      created_at, updated_at, expires_at)
            VALUES ($1, $2, 'gated', '{}', '[]', 0, 1, now(), now(), now() - interval '1 day')""";

    /** How many sessions wait for a lock the session {@code holder} holds. */
    private static final String WAITING = "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))";

    @Test
    void anotherUsersRunBeforeItsFirstCheckpointIsAnsweredAsAThreadThatDoesNotExist() {
        stub.enqueue(StubResponse.stream().text("Kept", " safe.").build());
        RunRequests alices = RunRequests.fresh().user("my secret plan");
        Vertx vertx = Vertx.vertx();
        PgConnection holder = PgConnection.connectAndAwait(vertx, PgConnectOptions.fromUri(StoreProfiles.POSTGRES_URL));
        try {
            holder.query("BEGIN").executeAndAwait();
            holder.preparedQuery(HOLD_ROW).executeAndAwait(Tuple.of("alice", alices.threadId()));
            try (SseClient.LiveStream run = client.open(AGENT, alices.json(), ALICE)) {
                run.await("RUN_STARTED");
                SharedThreadStoreContract.awaitUntil(() -> holder.preparedQuery(WAITING)
                        .executeAndAwait(Tuple.of(holder.processId())).iterator().next().getLong(0) == 1,
                        "alice's first checkpoint waits for the held row");

                assertOthersReachNothing(alices);
                stub.answerWhen(request -> request.toString().contains("bob's own"),
                        StubResponse.stream().text("Yours.").build());
                RunRequests bobs = RunRequests.of(alices.threadId(), "bob-run").user("bob's own");
                assertEquals(200, bob(AGENT, bobs.json()).statusCode(), "the id is bob's to use too, at once");

                holder.query("ROLLBACK").executeAndAwait();
                assertRanToItsEnd(run.readToEnd(), alices, "Kept safe.");
            }
        } finally {
            holder.closeAndAwait();
            vertx.closeAndAwait();
        }
    }
}
