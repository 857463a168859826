package dev.aguistate.summary;

import dev.aguistate.testing.StoreProfiles;
import dev.aguistate.store.redis.RedisThreadStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Redis;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;

@QuarkusTest
@TestProfile(StoreProfiles.Users.Redis.class)
@ExtendWith(StoreProfiles.RedisReachable.class)
class RedisSummarizerReplicasTest extends SummarizerReplicasContract {

    @Inject
    Vertx vertx;

    @Override
    protected Summarizer otherReplicasSummarizer() {
        RedisThreadStore other = new RedisThreadStore(Redis.createClient(vertx, StoreProfiles.REDIS_URL),
                Duration.ofHours(1), 1 << 20);
        return summarizerOver(other, other);
    }
}
