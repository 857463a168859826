package dev.aguistate.replicas;

import dev.aguistate.store.StoreServer;
import dev.aguistate.testing.ItOrder;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import java.util.Map;
import org.junit.jupiter.api.Order;

/** Replicas sharing the Redis at {@code AGUI_TEST_REDIS_URL}; .ci/run starts one. */
@Order(ItOrder.REDIS_REPLICAS)
class RedisReplicasIT extends ReplicasContract {

    private static final String URL = StoreServer.url("AGUI_TEST_REDIS_URL", "redis://127.0.0.1:6379");

    @Override
    protected StoreServer probe(Vertx vertx) {
        return StoreServer.probe("Redis", "the Redis replica tests (RedisReplicasIT)", URL,
                Redis.createClient(vertx, URL).send(Request.cmd(Command.PING)));
    }

    @Override
    protected Map<String, String> storeProperties() {
        return Map.of("agui.store.kind", "redis", "agui.store.redis.url", URL);
    }
}
