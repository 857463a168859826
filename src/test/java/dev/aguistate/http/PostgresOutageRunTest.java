package dev.aguistate.http;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** With the PostgreSQL of the store tests behind the proxy. */
@QuarkusTest
@TestProfile(PostgresOutageRunTest.PostgresBehindProxy.class)
class PostgresOutageRunTest extends StoreOutageRunTest {

    public static class PostgresBehindProxy extends StoreBehindProxy {
        public PostgresBehindProxy() {
            super("postgres");
        }
    }
}
