package dev.aguistate.store.redis;

import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.RunEventLogContract;
import dev.aguistate.store.ThreadSignals;
import dev.aguistate.store.StoreServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.redis.client.RedisOptions;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Against the Redis at {@code AGUI_TEST_REDIS_URL}; .ci/run starts one. */
@Execution(ExecutionMode.CONCURRENT)
class RedisRunEventLogTest extends RunEventLogContract {

    private static final String URL = StoreServer.url("AGUI_TEST_REDIS_URL", "redis://127.0.0.1:6379");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration IDLE_TTL = Duration.ofHours(1);
    private static final int FOLLOW_CONNECTIONS = 2;
    /**
     * The logs' timeout, longer than the contract waits: a waiting follower reads again only that often, so the
     * contract's followers get their entries in time only if the shared readers wake them.
     */
    private static final Duration LOG_TIMEOUT = Duration.ofMinutes(1);

    private static StoreServer server;
    private static Vertx vertx;
    private static Redis admin;
    private static RedisRunEventLog log;
    private static RedisThreadSignals signals;
    private static RedisThreadSignals otherReplicasSignals;
    private static final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void connect() {
        vertx = Vertx.vertx();
        admin = Redis.createClient(vertx, URL);
        server = StoreServer.probe("Redis", URL, admin.send(Request.cmd(Command.PING)));
        log = opened(new RedisRunEventLog(vertx, options(URL), 100_000, IDLE_TTL, LOG_TIMEOUT, FOLLOW_CONNECTIONS));
        signals = opened(new RedisThreadSignals(vertx, options(URL), TIMEOUT));
        otherReplicasSignals = opened(new RedisThreadSignals(vertx, options(URL), TIMEOUT));
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
        return opened(new RedisRunEventLog(vertx, options(URL), maxEvents, IDLE_TTL, LOG_TIMEOUT,
                FOLLOW_CONNECTIONS));
    }

    /** {@code MAXLEN ~} removes only whole stream nodes, of {@code stream-node-max-entries} (100 by default). */
    @Override
    protected int boundSlack() {
        return 100;
    }

    @Override
    protected ThreadSignals threadSignals() {
        return signals;
    }

    @Override
    protected ThreadSignals otherReplicasThreadSignals() {
        return otherReplicasSignals;
    }

    /**
     * Followers in this replica share {@code follow-connections} blocking readers: however many there are, and
     * however their runs interleave, they hold no more connections than that, and each still gets its entries.
     */
    @Test
    void manyFollowersShareTheBoundedConnectionsAndEachGetsItsEntries() {
        int others = followConnections(); // the readers of the class's other logs, which earlier tests followed
        RedisRunEventLog shared = opened(new RedisRunEventLog(vertx, options(URL), 100_000, IDLE_TTL, LOG_TIMEOUT,
                FOLLOW_CONNECTIONS));
        List<String> keys = IntStream.range(0, 60).mapToObj(n -> newKey()).toList();
        List<AssertSubscriber<LoggedEvent>> followers = new ArrayList<>();
        for (String key : keys) {
            followers.add(shared.follow(key, -1).subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE)));
        }
        followers.add(shared.follow(keys.get(0), -1).subscribe()
                .withSubscriber(AssertSubscriber.create(Long.MAX_VALUE))); // two followers of one run

        keys.forEach(key -> append(shared, key, 0, 3));
        followers.forEach(follower -> follower.awaitItems(3, WAIT));
        int whileWaiting = followConnections() - others;
        for (int n = keys.size() - 1; n >= 0; n--) {
            append(shared, keys.get(n), 3, 5);
        }
        followers.forEach(follower -> follower.awaitItems(5, WAIT));

        assertTrue(whileWaiting >= 1 && whileWaiting <= FOLLOW_CONNECTIONS, whileWaiting + " connections for "
                + followers.size() + " followers");
        assertTrue(followConnections() - others <= FOLLOW_CONNECTIONS);
        for (int n = 0; n < keys.size(); n++) {
            assertEquals(entries(0, 5), followers.get(n).getItems());
        }
        assertEquals(entries(0, 5), followers.get(keys.size()).getItems());
        followers.forEach(AssertSubscriber::cancel);
    }

    /** A reader whose connection is lost connects again, and its followers miss nothing appended meanwhile. */
    @Test
    void aFollowerGetsWhatWasAppendedWhileItsReadersConnectionWasLost() {
        String key = newKey();
        AssertSubscriber<LoggedEvent> follower = follow(key, -1);
        append(log, key, 0, 2);
        follower.awaitItems(2, WAIT);
        awaitUntil(() -> followConnections() > 0, "a reader waits for the follower");

        for (String id : followConnectionIds()) {
            admin.send(Request.cmd(Command.CLIENT).arg("KILL").arg("ID").arg(id)).await().atMost(WAIT);
        }
        append(log, key, 2, 4);

        follower.awaitItems(4, WAIT);
        assertEquals(entries(0, 4), follower.getItems());
        follower.cancel();
    }

    @Test
    void aLogThatItsRunNeverEndedExpiresAfterTheIdleTtl() {
        RedisRunEventLog shortLived = opened(new RedisRunEventLog(vertx, options(URL), 100, Duration.ofMillis(300),
                TIMEOUT, FOLLOW_CONNECTIONS));
        String key = newKey();
        append(shortLived, key, 0, 3);
        assertFalse(shortLived.read(key, -1, 10).await().atMost(WAIT).isEmpty());

        awaitUntil(() -> shortLived.read(key, -1, 10).await().atMost(WAIT).isEmpty(), "the abandoned log expires");
    }

    @Test
    void aFollowOfAnUnreachableRedisFails() {
        assertFollowFails(opened(new RedisRunEventLog(vertx, options("redis://127.0.0.1:1"), 100, IDLE_TTL,
                Duration.ofSeconds(1), FOLLOW_CONNECTIONS)));
    }

    private static int followConnections() {
        return followConnectionIds().size();
    }

    /** The ids of followers' connections to this test's database ({@code CLIENT LIST} lists every database's). */
    private static List<String> followConnectionIds() {
        String db = URI.create(URL).getPath().replace("/", "");
        String list = admin.send(Request.cmd(Command.CLIENT).arg("LIST")).await().atMost(WAIT).toString();
        assertTrue(list.contains("id="), list);
        return list.lines().filter(client -> client.contains(" name=agui-follow")
                        && client.contains(" db=" + (db.isEmpty() ? "0" : db) + " "))
                .map(client -> client.substring("id=".length(), client.indexOf(' '))).toList();
    }
}
