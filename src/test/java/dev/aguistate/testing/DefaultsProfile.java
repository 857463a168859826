package dev.aguistate.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The server with its defaults (no LLM configured, so the scripted demo model answers; no agents file) and a few
 * settings each of which changes only what one test class looks at, so that those classes share one boot instead of
 * one each: the sample UI served from {@link #SAMPLE_UI}, which its tests fill ({@code agui.sample-ui.dir}, read
 * per request); CopilotKit's endpoints off; the recipe sample asking before it changes the card and the document
 * sample not; health, metrics and OpenAPI on a management port of their own.
 */
public class DefaultsProfile implements QuarkusTestProfile {

    /** The sample UI's directory, empty until a test writes into it. */
    public static final Path SAMPLE_UI = Path.of("target", "sample-ui").toAbsolutePath();

    @Override
    public Map<String, String> getConfigOverrides() {
        try {
            Files.createDirectories(SAMPLE_UI);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of(
                "agui.sample-ui.dir", SAMPLE_UI.toString(),
                "agui.copilotkit.enabled", "false",
                "agui.samples.require-confirmation", "recipe",
                "agui.llm.demo.chunk-delay", "0ms",
                "quarkus.management.enabled", "true",
                "quarkus.management.test-port", "0"); // any free port, so suites can run side by side
    }
}
