package dev.aguistate.replicas;

import dev.aguistate.store.StoreServer;
import dev.aguistate.testing.ItOrder;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import java.util.Map;
import org.junit.jupiter.api.Order;

/**
 * Replicas sharing the PostgreSQL at {@code AGUI_TEST_POSTGRES_URL} (user and password, if any, in the URL);
 * .ci/run starts one. Both replicas start at once, so they also race to migrate its schema.
 */
@Order(ItOrder.POSTGRES_REPLICAS)
class PostgresReplicasIT extends ReplicasContract {

    private static final String URL = StoreServer.url("AGUI_TEST_POSTGRES_URL",
            "postgresql://postgres@127.0.0.1:5432/test");

    @Override
    protected StoreServer probe(Vertx vertx) {
        return StoreServer.probe("PostgreSQL", "the PostgreSQL replica tests (PostgresReplicasIT)", URL,
                PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(URL)).using(vertx).build()
                        .query("SELECT 1").execute());
    }

    @Override
    protected Map<String, String> storeProperties() {
        return Map.of("agui.store.kind", "postgres", "agui.store.postgres.url", URL);
    }
}
