package dev.aguistate.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The server as a newcomer starts it: no LLM configured, so the scripted demo model answers (paced as in production,
 * so that a stopped run is still going when the stop arrives), with the example agents of
 * {@code examples/agents.yaml} loaded, which the docs' examples use.
 */
public class ScriptedDemoProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("agui.llm.demo.chunk-delay", "15ms", "agui.agents.file", "examples/agents.yaml");
    }
}
