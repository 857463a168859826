package dev.aguistate.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The server as a newcomer starts it: no LLM configured, so the scripted demo model answers, with the example agents
 * of {@code examples/agents.yaml} loaded, which the docs' examples use. The model is paced, as in production, so
 * that a stopped or joined run is still going when the stop or the join arrives: its long story (420 chunks) lasts
 * over 3 s, where the docs' examples join it 1 s after it started and stop it at once. At half the production pace
 * (15 ms a chunk), since the tests that click through the sample's suggestions and the docs' examples that wait for
 * a story to end wait mostly for the model.
 */
public class ScriptedDemoProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("agui.llm.demo.chunk-delay", "8ms", "agui.agents.file", "examples/agents.yaml");
    }
}
