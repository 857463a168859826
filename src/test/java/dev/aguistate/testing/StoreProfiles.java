package dev.aguistate.testing;

import dev.aguistate.store.StoreServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The {@link StubbedLlmProfile} server with users, on each store, for tests that must hold on all three stores and
 * for the tests of users (one boot per store, which they share). A test class on Redis or PostgreSQL is skipped
 * (before Quarkus starts) when that server does not accept connections, unless {@code AGUI_REQUIRE_STORES=true}, as
 * in CI, where it then fails.
 */
public final class StoreProfiles {

    public static final String REDIS_URL = StoreServer.url("AGUI_TEST_REDIS_URL", "redis://127.0.0.1:6379");
    public static final String POSTGRES_URL = StoreServer.url("AGUI_TEST_POSTGRES_URL",
            "postgresql://postgres@127.0.0.1:5432/test");

    private StoreProfiles() {}

    /**
     * Three users, alice, bob and carol (API keys {@code alice-key}, {@code bob-key} and {@code carol-key}), and
     * CopilotKit's endpoints under {@link #COPILOTKIT} (configured with a trailing slash, which the server drops).
     */
    public static final class Users {

        public static final String COPILOTKIT = "/api/copilotkit";
        /**
         * The header carol sends: the caller of the tests that hold on every store whoever calls, so that alice's
         * and bob's threads are only those their tests made.
         */
        public static final String[] CAROL = {"Authorization", "Bearer carol-key"};

        private Users() {}

        public static class Memory extends StubbedLlmProfile {
            @Override
            public Map<String, String> getConfigOverrides() {
                return withUsers(super.getConfigOverrides());
            }
        }

        public static class Redis extends StubbedLlmProfile {
            @Override
            public Map<String, String> getConfigOverrides() {
                return withUsers(with(super.getConfigOverrides(), "redis", "agui.store.redis.url", REDIS_URL));
            }
        }

        /** A store call may take up to 30 s: a test holds a thread's row lock while it asks the server. */
        public static class Postgres extends StubbedLlmProfile {
            @Override
            public Map<String, String> getConfigOverrides() {
                Map<String, String> overrides = withUsers(with(super.getConfigOverrides(), "postgres",
                        "agui.store.postgres.url", POSTGRES_URL));
                overrides.put("agui.store.timeout", "30s");
                return overrides;
            }
        }

        private static Map<String, String> withUsers(Map<String, String> base) {
            Map<String, String> overrides = new HashMap<>(base);
            overrides.put("agui.auth.api-keys.alice-key", "alice");
            overrides.put("agui.auth.api-keys.bob-key", "bob");
            overrides.put("agui.auth.api-keys.carol-key", "carol");
            overrides.put("agui.copilotkit.base-path", COPILOTKIT + "/");
            return overrides;
        }
    }

    private static Map<String, String> with(Map<String, String> base, String kind, String urlKey, String url) {
        Map<String, String> overrides = new HashMap<>(base);
        overrides.put("agui.store.kind", kind);
        overrides.put(urlKey, url);
        return overrides;
    }

    /** For {@code @ExtendWith} on a Redis test class. */
    public static final class RedisReachable extends Reachable {
        public RedisReachable() {
            super("Redis", REDIS_URL);
        }
    }

    /** For {@code @ExtendWith} on a PostgreSQL test class. */
    public static final class PostgresReachable extends Reachable {
        public PostgresReachable() {
            super("PostgreSQL", POSTGRES_URL);
        }
    }

    private abstract static class Reachable implements ExecutionCondition {
        private final String server;
        private final String url;

        Reachable(String server, String url) {
            this.server = server;
            this.url = url;
        }

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            URI uri = URI.create(url);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2000);
                return ConditionEvaluationResult.enabled(server + " accepts connections");
            } catch (IOException e) {
                if (Boolean.parseBoolean(System.getenv("AGUI_REQUIRE_STORES"))) {
                    return ConditionEvaluationResult.enabled(server + " is not reachable at " + url
                            + ", and AGUI_REQUIRE_STORES=true: the test runs and fails");
                }
                return ConditionEvaluationResult.disabled("skipped: " + server + " is not reachable at " + url
                        + " (set AGUI_REQUIRE_STORES=true to fail instead)");
            }
        }
    }
}
