package dev.aguistate.conformance;

import dev.aguistate.replicas.ServerInstance;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The packaged server ({@code target/quarkus-app}, built by the package phase) as a user starts it: {@code java -jar}
 * with its production defaults (no LLM configured, so the scripted demo model answers) and the given {@code -D}
 * properties. It starts before the first test class that registers it and stops at the end of the run, so that the
 * classes that register equal properties share one server ({@link #defaults()}, {@link #withApiKeys()}). The Node
 * suites run against it in {@code verify}; its log is printed when a test fails. As
 * {@code testing.BlockedEventLoopGuard} does for the test server, a test fails when the server logged a blocked
 * thread ("Thread ... has been blocked for ...") while it ran.
 */
final class PackagedServer implements BeforeAllCallback, AfterEachCallback, TestWatcher {

    private static final ExtensionContext.Namespace SERVERS = ExtensionContext.Namespace.create(PackagedServer.class);

    /** A started server in the run's store, which stops it when the run ends. */
    private record Started(ServerInstance instance) implements AutoCloseable {
        @Override
        public void close() {
            instance.close();
        }
    }

    private final String name;
    private final Map<String, String> properties;
    private ServerInstance instance;
    /** How much of the log the blocked-thread check has read. */
    private int checked;

    PackagedServer(String name, Map<String, String> properties) {
        this.name = name;
        this.properties = properties;
    }

    /**
     * The server with its defaults (one anonymous user) and, as the docs' newcomer runs it, the agents of
     * {@code examples/agents.yaml}: the suite's sub-agent runs are its supervisor's.
     */
    static PackagedServer defaults() {
        return new PackagedServer("defaults", Map.of("agui.agents.file", "examples/agents.yaml"));
    }

    /**
     * The server with three API keys: {@code alice-key} and {@code bob-key} for two users of the AG-UI client, and
     * {@value #COPILOTKIT_KEY}, the key a CopilotKit application sends for its user {@code carol}.
     */
    static PackagedServer withApiKeys() {
        return new PackagedServer("api-keys", Map.of(
                "agui.auth.api-keys.alice-key", "alice",
                "agui.auth.api-keys.bob-key", "bob",
                "agui.auth.api-keys." + COPILOTKIT_KEY, "carol"));
    }

    static final String COPILOTKIT_KEY = "copilotkit-app-key";

    /** Where it serves, for {@code AGUI_SERVER_URL}. */
    String url() {
        return instance.url();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        instance = context.getRoot().getStore(SERVERS).computeIfAbsent(properties, key -> {
            ServerInstance launched = ServerInstance.launch(name, properties);
            launched.awaitReady();
            return new Started(launched);
        }, Started.class).instance();
        checked = instance.log().length(); // what an earlier class saw was checked in its own tests
    }

    /** Synchronized: a class may run its tests side by side ({@code @Execution(CONCURRENT)}). */
    @Override
    public synchronized void afterEach(ExtensionContext context) {
        String log = instance.log();
        String since = log.substring(checked);
        checked = log.length();
        if (since.contains("has been blocked for")) {
            throw new AssertionError("the packaged server reported a blocked thread; its log since the test began:\n"
                    + since);
        }
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        System.err.printf("%n----- %s failed; log of %s -----%n%s%n----- end of that log -----%n",
                context.getDisplayName(), instance, instance.log());
    }
}
