package dev.aguistate.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Starts one {@link OpenAiStub} before the application and points {@code agui.llm.*} at it. */
public class OpenAiStubResource implements QuarkusTestResourceLifecycleManager {

    private static volatile OpenAiStub stub;

    /** The stub the running application talks to. */
    public static OpenAiStub stub() {
        if (stub == null) {
            throw new IllegalStateException("the OpenAI stub runs only under the StubbedLlmProfile test profile");
        }
        return stub;
    }

    @Override
    public Map<String, String> start() {
        stub = OpenAiStub.start();
        return Map.of(
                "agui.llm.base-url", stub.baseUrl(),
                "agui.llm.api-key", "test-key",
                "agui.llm.model", "gpt-test");
    }

    @Override
    public void stop() {
        if (stub != null) {
            stub.close();
            stub = null;
        }
    }
}
