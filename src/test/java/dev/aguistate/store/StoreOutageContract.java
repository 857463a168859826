package dev.aguistate.store;

import dev.aguistate.store.wiring.ThreadStoreProducer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.testing.FaultyTcpProxy;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A store on a server that stops answering, for real: the server (Redis, PostgreSQL) sits behind a
 * {@link FaultyTcpProxy}, and the store is made as the server makes it ({@link ThreadStoreProducer}) with a short
 * {@code agui.store.timeout}. A call to a silent store fails with {@link StoreUnavailable} instead of waiting
 * forever; a commit that timed out leaves the thread whole; the store serves again once its server answers.
 */
public abstract class StoreOutageContract {

    /** Short, but long enough for a first call (a new connection) on a busy machine. */
    protected static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** Far longer than any call takes here when the server answers, and far shorter than forever. */
    protected static final Duration BOUND = Duration.ofSeconds(10);

    protected final String owner = "user-" + UUID.randomUUID();
    protected Vertx vertx;
    protected FaultyTcpProxy proxy;
    protected ThreadBackend store;
    private ThreadStoreProducer producer;

    /** The real server's URL; the server must answer (see {@link StoreServer}). */
    protected abstract String serverUrl();

    /** Fails or skips the test when the real server does not answer. */
    protected abstract void requireServer(Vertx vertx);

    /** {@code agui.store.*} of a store on the server at {@code url}. */
    protected abstract Map<String, String> storeProperties(String url);

    @BeforeEach
    void startProxyAndStore() {
        vertx = Vertx.vertx();
        requireServer(vertx);
        proxy = FaultyTcpProxy.inFrontOf(serverUrl());
        producer = new ThreadStoreProducer(vertx);
        store = producer.backend(config());
    }

    /** Also from a test that must see what happens when the store's client closes. */
    @AfterEach
    protected void stop() throws Exception {
        if (producer != null) {
            producer.close();
            producer = null;
        }
        if (proxy != null) {
            proxy.close();
            proxy = null;
        }
        if (vertx != null) {
            vertx.closeAndAwait();
            vertx = null;
        }
    }

    /** The store's configuration, its server reached through the proxy. */
    protected StoreConfig config() {
        Map<String, String> properties = new HashMap<>(storeProperties(proxy.url()));
        properties.put("agui.store.timeout", TIMEOUT.toMillis() + "ms");
        return StoreConfigs.of(properties);
    }

    @Test
    void everyCallToAStalledStoreFailsWithStoreUnavailable() {
        ThreadKey id = newId();
        StoredThread stored = commit(thread(id, "{\"v\":1}"), 0);
        RunLock lock = store.tryLock(id, "run-1", Duration.ofMinutes(1)).await().atMost(BOUND).orElseThrow();

        proxy.stall();

        List<Uni<?>> calls = List.of(store.load(id), store.loadScope(ScopedState.APP_SCOPE),
                store.commit(new ThreadCommit(thread(id, "{\"v\":2}"), stored.version(), List.of())),
                store.delete(id), store.list(owner, 0, 10), store.tryLock(newId(), "run-1", Duration.ofMinutes(1)),
                store.renew(lock, Duration.ofMinutes(1)), store.unlock(lock), store.ping());
        assertAllFailWithStoreUnavailable(calls);
    }

    @Test
    void aStoreWhoseServerAnswersAgainServesAgain() {
        ThreadKey id = newId();
        commit(thread(id, "{\"v\":1}"), 0);
        proxy.stall();
        assertInstanceOf(StoreUnavailable.class, failureOf(store.load(id)));

        proxy.pass();

        assertEquals(1, store.load(id).await().atMost(BOUND).orElseThrow().version());
    }

    @Test
    void aCommitThatTimedOutAndNeverReachedTheServerWroteNothing() {
        ThreadKey id = newId();
        String scope = timeOutACommit(id);

        proxy.cut(); // what the stall held is lost
        proxy.pass();

        StoredThread found = store.load(id).await().atMost(BOUND).orElseThrow();
        assertEquals(1, found.version());
        assertEquals(json("{\"v\":1}"), found.state());
        assertEquals(0, store.loadScope(scope).await().atMost(BOUND).version());
        assertEquals(2, commit(thread(id, "{\"v\":3}"), 1).version(), "nothing holds the thread");
    }

    @Test
    void aCallWhoseConnectionIsCutFailsWithStoreUnavailableAndLaterCallsReconnect() {
        ThreadKey id = newId();
        commit(thread(id, "{\"v\":1}"), 0);
        proxy.stall();
        Uni<?> inFlight = store.load(id).memoize().indefinitely();
        inFlight.subscribe().with(found -> { }, failure -> { });

        proxy.cut();

        assertInstanceOf(StoreUnavailable.class, failureOf(inFlight));
        proxy.pass();
        awaitAnswer(() -> store.load(id), "the store reconnects");
    }

    /**
     * Commits the thread {@code id} at version 1, stalls the server, and has a commit of version 2, together with
     * the owner's scope, time out.
     *
     * @return the scope
     */
    protected String timeOutACommit(ThreadKey id) {
        String scope = ScopedState.userScope(owner);
        commit(thread(id, "{\"v\":1}"), 0);
        proxy.stall();
        assertInstanceOf(StoreUnavailable.class, failureOf(store.commit(new ThreadCommit(thread(id, "{\"v\":2}"), 1,
                List.of(new ThreadCommit.ScopeWrite(scope, json("{\"user:v\":2}"), 0))))));
        return scope;
    }

    /** Waits until the call succeeds; it may fail with {@link StoreUnavailable} until then. */
    protected static void awaitAnswer(Supplier<Uni<?>> call, String what) {
        SharedThreadStoreContract.awaitUntil(() -> {
            try {
                call.get().await().atMost(BOUND);
                return true;
            } catch (StoreUnavailable notYet) {
                return false;
            }
        }, what);
    }

    /** Runs the calls at once and checks that each fails so. */
    protected static void assertAllFailWithStoreUnavailable(List<? extends Uni<?>> calls) {
        List<Throwable> failures = Uni.join().all(calls.stream()
                        .map(call -> call.onItemOrFailure().transform((answer, failure) -> failure)).toList())
                .andFailFast().await().atMost(BOUND);
        assertTrue(failures.stream().allMatch(StoreUnavailable.class::isInstance), failures.toString());
    }

    protected static Throwable failureOf(Uni<?> call) {
        return assertThrows(RuntimeException.class, () -> call.await().atMost(BOUND));
    }

    protected StoredThread commit(StoredThread thread, long expectedVersion) {
        return store.commit(new ThreadCommit(thread, expectedVersion, List.of())).await().atMost(BOUND);
    }

    protected StoredThread thread(ThreadKey id, String state) {
        return new StoredThread(id.threadId(), id.owner(), "agent-x", json(state), List.of(), ThreadMeta.EMPTY, 0, Instant.EPOCH,
                Instant.EPOCH);
    }

    protected ThreadKey newId() {
        return new ThreadKey(owner, "thread-" + UUID.randomUUID());
    }

    protected static ObjectNode json(String text) {
        return (ObjectNode) AgUiJson.tree(text);
    }
}
