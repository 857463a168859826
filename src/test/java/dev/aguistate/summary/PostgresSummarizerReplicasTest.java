package dev.aguistate.summary;

import dev.aguistate.testing.StoreProfiles;
import dev.aguistate.store.postgres.PostgresThreadStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;

@QuarkusTest
@TestProfile(StoreProfiles.Users.Postgres.class)
@ExtendWith(StoreProfiles.PostgresReachable.class)
class PostgresSummarizerReplicasTest extends SummarizerReplicasContract {

    @Inject
    Vertx vertx;

    @Override
    protected Summarizer otherReplicasSummarizer() {
        PostgresThreadStore other = new PostgresThreadStore(PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(StoreProfiles.POSTGRES_URL)).using(vertx).build(),
                Duration.ofHours(1), 1 << 20);
        return summarizerOver(other, other);
    }
}
