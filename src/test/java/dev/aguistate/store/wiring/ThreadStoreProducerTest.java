package dev.aguistate.store.wiring;

import dev.aguistate.store.StoreConfig;
import dev.aguistate.store.StoreConfigs;
import dev.aguistate.store.ThreadBackend;
import dev.aguistate.store.TimedThreadBackend;
import dev.aguistate.store.memory.InMemoryThreadStore;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@Execution(ExecutionMode.CONCURRENT)
class ThreadStoreProducerTest {

    private final Vertx vertx = Vertx.vertx();
    private final ThreadStoreProducer producer = new ThreadStoreProducer(vertx);

    @AfterEach
    void closeVertx() {
        vertx.closeAndAwait();
    }

    @Test
    void byDefaultThreadsStayInMemoryForAWeek() {
        StoreConfig config = StoreConfigs.of(Map.of());

        assertEquals(Duration.ofDays(7), config.ttl());
        assertEquals(Duration.ofMinutes(5), config.lockTtl());
        assertEquals(Duration.ofSeconds(5), config.timeout());
        assertEquals(8L << 20, config.maxThreadBytes());
        assertEquals(10_000, config.memory().maxThreads());
        assertTrue(config.memory().maxBytes().isEmpty(), "a share of the heap unless set");
        assertInstanceOf(InMemoryThreadStore.class, producer.backend(config));
    }

    @Test
    void theThreePortsAreOneBackendOnOneConnection() {
        StoreConfig config = StoreConfigs.of(Map.of());

        ThreadBackend backend = producer.backend(config);

        assertSame(backend, producer.threadStore(config));
        assertSame(backend, producer.threadLocks(config));
        assertSame(backend, producer.threadSummaries(config));
    }

    @Test
    void aSharedStoreWithoutItsUrlStopsTheStartNamingTheSetting() {
        IllegalStateException redis = assertThrows(IllegalStateException.class,
                () -> producer.backend(StoreConfigs.of(Map.of("agui.store.kind", "redis"))));
        IllegalStateException postgres = assertThrows(IllegalStateException.class,
                () -> producer.backend(StoreConfigs.of(Map.of("agui.store.kind", "postgres"))));

        assertEquals("agui.store.kind=redis needs agui.store.redis.url (environment variable AGUI_STORE_REDIS_URL)",
                redis.getMessage());
        assertEquals("agui.store.kind=postgres needs agui.store.postgres.url (environment variable "
                + "AGUI_STORE_POSTGRES_URL)", postgres.getMessage());
    }

    @Test
    void redisConnectsOnFirstUseAndClosesWithTheApplication() throws Exception {
        ThreadBackend store = producer.backend(StoreConfigs.of(Map.of("agui.store.kind", "redis",
                "agui.store.redis.url", "redis://127.0.0.1:1")));

        assertInstanceOf(TimedThreadBackend.class, store);
        producer.close();
    }
}
