package dev.aguistate.store.redis;

import dev.aguistate.store.SharedThreadStoreContract;
import dev.aguistate.store.StoreOutageContract;
import dev.aguistate.store.StoreServer;
import dev.aguistate.store.ThreadKey;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Against the Redis at {@code AGUI_TEST_REDIS_URL}, through a {@link dev.aguistate.testing.FaultyTcpProxy}. */
@Execution(ExecutionMode.CONCURRENT)
class RedisStoreOutageTest extends StoreOutageContract {

    private static final String URL = StoreServer.url("AGUI_TEST_REDIS_URL", "redis://127.0.0.1:6379");
    /** More concurrent calls than the client has connections (6). */
    private static final int MORE_CALLS_THAN_CONNECTIONS = 12;

    @Override
    protected String serverUrl() {
        return URL;
    }

    @Override
    protected void requireServer(Vertx vertx) {
        StoreServer.probe("Redis", URL, Redis.createClient(vertx, URL).send(Request.cmd(Command.PING)))
                .assumeReachable();
    }

    @Override
    protected Map<String, String> storeProperties(String url) {
        return Map.of("agui.store.kind", "redis", "agui.store.redis.url", url);
    }

    /**
     * A server replaced (or a network path that dropped its flows) without telling the client: the connections it
     * had, all of them busy, stay silent for good, while new ones would be answered.
     */
    @Test
    void connectionsThatStaySilentForGoodAreReplacedSoTheStoreRecovers() {
        proxy.stall();
        assertAllFailWithStoreUnavailable(IntStream.range(0, MORE_CALLS_THAN_CONNECTIONS)
                .mapToObj(i -> store.load(newId())).toList());

        proxy.failOver();

        awaitAnswer(store::ping, "the silent connections are replaced by new ones");
    }

    /** The other way a timed-out commit ends: the network heals, the held script reaches Redis and runs whole. */
    @Test
    void aCommitThatTimedOutAndReachedRedisLaterIsAppliedWhole() {
        ThreadKey id = newId();
        String scope = timeOutACommit(id);

        proxy.pass();

        SharedThreadStoreContract.awaitUntil(() -> store.load(id).await().atMost(BOUND).orElseThrow().version() == 2,
                "the held commit arrives");
        assertEquals(json("{\"v\":2}"), store.load(id).await().atMost(BOUND).orElseThrow().state());
        assertEquals(1, store.loadScope(scope).await().atMost(BOUND).version(), "with its scope");
    }
}
