package dev.aguistate.store.redis;

import dev.aguistate.store.SharedThreadStoreContract;
import dev.aguistate.store.StoreServer;
import dev.aguistate.store.ThreadStore;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Against the Redis at {@code AGUI_TEST_REDIS_URL}; .ci/run starts one. */
class RedisThreadStoreTest extends SharedThreadStoreContract {

    private static final String URL = StoreServer.url("AGUI_TEST_REDIS_URL", "redis://127.0.0.1:6379");
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static StoreServer server;
    private static Vertx vertx;
    private static Redis redis;
    private static RedisThreadStore store;

    @BeforeAll
    static void connect() {
        vertx = Vertx.vertx();
        redis = Redis.createClient(vertx, URL);
        store = new RedisThreadStore(redis, Duration.ofHours(1), MAX_THREAD_BYTES);
        server = StoreServer.probe("Redis", URL, redis.send(Request.cmd(Command.PING)));
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
        return new RedisThreadStore(redis, ttl, MAX_THREAD_BYTES);
    }

    @Test
    void scriptsThatTheServerForgotAreSentAgain() {
        String id = newId();
        commit(thread(id, json("{}"), List.of()), 0);

        redis.send(Request.cmd(Command.SCRIPT).arg("FLUSH")).await().atMost(WAIT);

        assertEquals(2, commit(thread(id, json("{}"), List.of()), 1).version());
    }
}
