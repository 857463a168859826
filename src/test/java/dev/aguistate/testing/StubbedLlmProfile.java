package dev.aguistate.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * The server with its real langchain4j adapter pointed at an {@link OpenAiStub}; short timeouts so that the
 * keep-alive, idle-timeout, round-limit and full-queue paths are reachable in a test. Threads may hold 64 MiB (8 by default):
 * {@code UpstreamFaultRunTest} streams 32 MB of text, which the run keeps. It is the one profile of most
 * {@code @QuarkusTest}s, so that they share one boot: a test that needs a setting of its own shares a profile with
 * the tests that need the same, or gets one of its own, and Quarkus restarts for it.
 */
public class StubbedLlmProfile implements QuarkusTestProfile {

    public static final int MAX_ROUNDS = 3;
    public static final int CONTEXT_MAX_MESSAGES = 50;
    public static final String CONTEXT_MAX_AGE = "P1D";
    /** {@code agui.run.max-queued}: few enough runs waiting for one thread that a test reaches the bound. */
    public static final int MAX_QUEUED = 4;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "agui.http.keep-alive", "300ms",
                "agui.http.request-body-timeout", "2s",
                "agui.llm.idle-timeout", "1500ms",
                "agui.run.max-rounds", String.valueOf(MAX_ROUNDS),
                "agui.run.max-queued", String.valueOf(MAX_QUEUED),
                "agui.state.delta-interval", "0ms",
                "agui.run.context.max-messages", String.valueOf(CONTEXT_MAX_MESSAGES),
                "agui.run.context.max-age", CONTEXT_MAX_AGE,
                "agui.store.max-thread-bytes", String.valueOf(64L * 1024 * 1024),
                "agui.llm.headers.X-Test-Header", "present");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(OpenAiStubResource.class));
    }
}
