package dev.aguistate.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ThreadStoreProducerTest {

    private final Vertx vertx = Vertx.vertx();
    private final ThreadStoreProducer producer = new ThreadStoreProducer(vertx);

    @AfterEach
    void closeVertx() {
        vertx.closeAndAwait();
    }

    @Test
    void byDefaultThreadsStayInMemoryForAWeek() {
        StoreConfig config = config(Map.of());

        assertEquals(Duration.ofDays(7), config.ttl());
        assertEquals(Duration.ofMinutes(5), config.lockTtl());
        assertEquals(10_000, config.memory().maxThreads());
        assertInstanceOf(InMemoryThreadStore.class, producer.threadStore(config));
    }

    @Test
    void aSharedStoreWithoutItsUrlStopsTheStartNamingTheSetting() {
        IllegalStateException redis = assertThrows(IllegalStateException.class,
                () -> producer.threadStore(config(Map.of("agui.store.kind", "redis"))));
        IllegalStateException postgres = assertThrows(IllegalStateException.class,
                () -> producer.threadStore(config(Map.of("agui.store.kind", "postgres"))));

        assertEquals("agui.store.kind=redis needs agui.store.redis.url (environment variable AGUI_STORE_REDIS_URL)",
                redis.getMessage());
        assertEquals("agui.store.kind=postgres needs agui.store.postgres.url (environment variable "
                + "AGUI_STORE_POSTGRES_URL)", postgres.getMessage());
    }

    @Test
    void redisConnectsOnFirstUseAndClosesWithTheApplication() throws Exception {
        ThreadStore store = producer.threadStore(config(Map.of("agui.store.kind", "redis",
                "agui.store.redis.url", "redis://127.0.0.1:1")));

        assertInstanceOf(RedisThreadStore.class, store);
        producer.close(store);
    }

    private static StoreConfig config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .withMapping(StoreConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .build()
                .getConfigMapping(StoreConfig.class);
    }
}
