package dev.aguistate.llm;

/**
 * What is answering, safe to show to clients (no secrets).
 *
 * @param kind {@code openai-compatible} or {@code scripted-demo}
 * @param provider the {@code provider} reported in token usage
 */
public record ModelDescription(String kind, String provider, String model, String baseUrl) {

    public boolean scripted() {
        return ScriptedDemoModel.KIND.equals(kind);
    }
}
