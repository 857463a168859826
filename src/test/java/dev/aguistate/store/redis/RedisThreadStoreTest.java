package dev.aguistate.store.redis;

import dev.aguistate.store.SharedThreadStoreContract;
import dev.aguistate.store.StoreServer;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadBackend;
import dev.aguistate.store.ThreadSummary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Against the Redis at {@code AGUI_TEST_REDIS_URL}; .ci/run starts one. */
@Execution(ExecutionMode.CONCURRENT)
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
    protected ThreadBackend store() {
        return store;
    }

    @Override
    protected ThreadBackend replica(Duration ttl) {
        return new RedisThreadStore(redis, ttl, MAX_THREAD_BYTES);
    }

    @Test
    void threadsStoredBeforeOwnerKeysMoveToTheirOwnersKeysKeepingTheirExpiry() {
        String threadId = "thread-" + UUID.randomUUID();
        String owner = "acme%2F/ali:ce " + UUID.randomUUID(); // a tenant's escape, a colon: the key stays the owner's
        String legacy = "agui:thread:" + threadId;
        // as the server before owner keys wrote it (commit.lua of then)
        redis.send(Request.cmd(Command.HSET).arg(legacy).arg("owner").arg(owner).arg("agent").arg("chat")
                .arg("state").arg("{\"v\":1}").arg("messages").arg("[]").arg("messageCount").arg(0)
                .arg("meta").arg("{}").arg("version").arg(4).arg("createdAt").arg(1_000).arg("updatedAt").arg(2_000))
                .await().atMost(WAIT);
        redis.send(Request.cmd(Command.PEXPIRE).arg(legacy).arg(Duration.ofHours(2).toMillis())).await().atMost(WAIT);
        redis.send(Request.cmd(Command.ZADD).arg("agui:owner:" + owner).arg(-2_000).arg(threadId)).await().atMost(WAIT);

        assertTrue(new RedisKeyUpgrade(redis).moveUnownedThreads().await().atMost(WAIT) >= 1);

        ThreadKey key = new ThreadKey(owner, threadId);
        long expiresIn = redis.send(Request.cmd(Command.PTTL).arg(RedisThreadStore.threadKey(key))).await()
                .atMost(WAIT).toLong();
        assertTrue(expiresIn > Duration.ofHours(1).toMillis() && expiresIn <= Duration.ofHours(2).toMillis(),
                "the thread keeps its expiry: " + expiresIn);
        StoredThread moved = store.load(key).await().atMost(WAIT).orElseThrow();
        assertEquals(json("{\"v\":1}"), moved.state());
        assertEquals(4, moved.version());
        assertEquals(List.of(threadId), store.list(owner, 0, 10).await().atMost(WAIT).stream()
                .map(ThreadSummary::threadId).toList());
        assertEquals(0, redis.send(Request.cmd(Command.EXISTS).arg(legacy)).await().atMost(WAIT).toInteger());
        assertTrue(store.load(new ThreadKey("someone else", threadId)).await().atMost(WAIT).isEmpty());
        assertEquals(5, commit(moved, 4).version(), "it goes on as the owner's thread");
        assertEquals(0, new RedisKeyUpgrade(redis).moveUnownedThreads().await().atMost(WAIT),
                "nothing is left to move");
    }

    @Test
    void scriptsThatTheServerForgotAreSentAgain() {
        ThreadKey id = newId();
        commit(thread(id, json("{}"), List.of()), 0);

        redis.send(Request.cmd(Command.SCRIPT).arg("FLUSH")).await().atMost(WAIT);

        assertEquals(2, commit(thread(id, json("{}"), List.of()), 1).version());
    }
}
