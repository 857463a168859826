package dev.aguistate.http;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** With the Redis of the store tests behind the proxy. */
@QuarkusTest
@TestProfile(RedisOutageRunTest.RedisBehindProxy.class)
class RedisOutageRunTest extends StoreOutageRunTest {

    public static class RedisBehindProxy extends StoreBehindProxy {
        public RedisBehindProxy() {
            super("redis");
        }
    }
}
