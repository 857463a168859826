package dev.aguistate.llm;

/**
 * What is answering, safe to show to clients (no secrets).
 *
 * @param kind {@code openai-compatible} or {@code scripted-demo}
 * @param provider the {@code provider} reported in token usage
 */
public record ModelDescription(String kind, String provider, String model, String baseUrl) {

    public static final String OPENAI_COMPATIBLE = "openai-compatible";
    public static final String SCRIPTED_DEMO = "scripted-demo";

    public boolean scripted() {
        return SCRIPTED_DEMO.equals(kind);
    }
}
