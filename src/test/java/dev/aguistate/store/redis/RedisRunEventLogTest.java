package dev.aguistate.store.redis;

import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.RunEventLogContract;
import dev.aguistate.store.StopSignals;
import dev.aguistate.store.StoreServer;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.redis.client.RedisOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Against the Redis at {@code AGUI_TEST_REDIS_URL}; .ci/run starts one. */
class RedisRunEventLogTest extends RunEventLogContract {

    private static final String URL = StoreServer.url("AGUI_TEST_REDIS_URL", "redis://127.0.0.1:6379");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration IDLE_TTL = Duration.ofHours(1);

    private static StoreServer server;
    private static Vertx vertx;
    private static Redis admin;
    private static RedisRunEventLog log;
    private static RedisStopSignals signals;
    private static RedisStopSignals otherReplicasSignals;
    private static final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void connect() {
        vertx = Vertx.vertx();
        admin = Redis.createClient(vertx, URL);
        server = StoreServer.probe("Redis", URL, admin.send(Request.cmd(Command.PING)));
        log = opened(new RedisRunEventLog(vertx, options(URL), 100_000, IDLE_TTL, TIMEOUT));
        signals = opened(new RedisStopSignals(vertx, options(URL), TIMEOUT));
        otherReplicasSignals = opened(new RedisStopSignals(vertx, options(URL), TIMEOUT));
    }

    @BeforeEach
    void requireServer() {
        server.assumeReachable();
    }

    @AfterAll
    static void disconnect() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
        admin.close();
        vertx.closeAndAwait();
    }

    private static RedisOptions options(String url) {
        return new RedisOptions().setConnectionString(url);
    }

    private static <T extends AutoCloseable> T opened(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    @Override
    protected RunEventLog log() {
        return log;
    }

    @Override
    protected RunEventLog logKeeping(int maxEvents) {
        return opened(new RedisRunEventLog(vertx, options(URL), maxEvents, IDLE_TTL, TIMEOUT));
    }

    /** {@code MAXLEN ~} removes only whole stream nodes, of {@code stream-node-max-entries} (100 by default). */
    @Override
    protected int boundSlack() {
        return 100;
    }

    @Override
    protected StopSignals stopSignals() {
        return signals;
    }

    @Override
    protected StopSignals otherReplicasStopSignals() {
        return otherReplicasSignals;
    }

    @Test
    void aFollowerHasAConnectionOfItsOwnThatCancellingCloses() {
        String key = newKey();
        AssertSubscriber<LoggedEvent> follower = follow(key, -1);
        awaitUntil(() -> clients().contains("name=agui-follow:" + key), "the follower's connection is open");

        follower.cancel();

        awaitUntil(() -> !clients().contains("name=agui-follow:" + key), "the follower's connection is closed");
    }

    @Test
    void aLogThatItsRunNeverEndedExpiresAfterTheIdleTtl() {
        RedisRunEventLog shortLived = opened(new RedisRunEventLog(vertx, options(URL), 100, Duration.ofMillis(300),
                TIMEOUT));
        String key = newKey();
        append(shortLived, key, 0, 3);
        assertFalse(shortLived.read(key, -1, 10).await().atMost(WAIT).isEmpty());

        awaitUntil(() -> shortLived.read(key, -1, 10).await().atMost(WAIT).isEmpty(), "the abandoned log expires");
    }

    @Test
    void aFollowOfAnUnreachableRedisFails() {
        assertFollowFails(opened(new RedisRunEventLog(vertx, options("redis://127.0.0.1:1"), 100, IDLE_TTL,
                Duration.ofSeconds(1))));
    }

    private static String clients() {
        String list = admin.send(Request.cmd(Command.CLIENT).arg("LIST")).await().atMost(WAIT).toString();
        assertTrue(list.contains("id="), list);
        return list;
    }
}
