package dev.aguistate.conformance;

import dev.aguistate.replicas.ServerInstance;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The packaged server ({@code target/quarkus-app}, built by the package phase) started for a test class, as a user
 * starts it: {@code java -jar} with its production defaults (no LLM configured, so the scripted demo model answers)
 * and the given {@code -D} properties. The Node suites run against it in {@code verify}; its log is printed when a
 * test fails. As {@code testing.BlockedEventLoopGuard} does for the test server, a test fails when the server logged
 * a blocked thread ("Thread ... has been blocked for ...") while it ran.
 */
final class PackagedServer implements BeforeAllCallback, AfterAllCallback, AfterEachCallback, TestWatcher {

    private final String name;
    private final Map<String, String> properties;
    private ServerInstance instance;
    /** How much of the log the blocked-thread check has read. */
    private int checked;

    PackagedServer(String name, Map<String, String> properties) {
        this.name = name;
        this.properties = properties;
    }

    /** Where it serves, for {@code AGUI_SERVER_URL}. */
    String url() {
        return instance.url();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        instance = ServerInstance.launch(name, properties);
        instance.awaitReady();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        String log = instance.log();
        String since = log.substring(checked);
        checked = log.length();
        if (since.contains("has been blocked for")) {
            throw new AssertionError("the packaged server reported a blocked thread; its log since the test began:\n"
                    + since);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        instance.close();
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        System.err.printf("%n----- %s failed; log of %s -----%n%s%n----- end of that log -----%n",
                context.getDisplayName(), instance, instance.log());
    }
}
