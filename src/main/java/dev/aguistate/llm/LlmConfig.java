package dev.aguistate.llm;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The language model endpoint ({@code agui.llm.*}, or {@code AGUI_LLM_*} in the environment).
 * With neither a base URL nor an API key the server runs the scripted demo model.
 */
@ConfigMapping(prefix = "agui.llm")
public interface LlmConfig {

    /** OpenAI-compatible base URL, e.g. {@code http://localhost:11434/v1} for Ollama; default OpenAI's. */
    Optional<String> baseUrl();

    /** Sent as {@code Authorization: Bearer <key>}. */
    Optional<String> apiKey();

    @WithDefault("gpt-4o-mini")
    String model();

    Optional<Double> temperature();

    Optional<Integer> maxTokens();

    /** Whether the model may call several tools at once; unset leaves the provider's default. */
    Optional<Boolean> parallelToolCalls();

    @WithDefault("10s")
    Duration connectTimeout();

    /** How long to wait for the upstream's response headers. */
    @WithDefault("60s")
    Duration responseTimeout();

    /**
     * A stream whose upstream sends nothing for this long ends the run with {@code llm_idle_timeout}. Only counts
     * while the server is reading: a client that reads slowly pauses the upstream, and that is not silence.
     */
    @WithDefault("60s")
    Duration idleTimeout();

    /**
     * How often a call is tried again after a transient failure before its response: HTTP 429, 502 or 503, a
     * refused connection, a connection closed or reset before any response. Never once anything was streamed.
     */
    @WithDefault("2")
    int maxRetries();

    /** The longest {@code Retry-After} that is waited for; a longer one fails the call at once. */
    @WithDefault("10s")
    Duration maxRetryWait();

    /** Upper bound of open connections to the endpoint; a streaming call holds one for its whole length. */
    @WithDefault("4096")
    int maxConnections();

    /** Extra request headers, e.g. {@code agui.llm.headers.api-key=...} for Azure OpenAI. */
    Map<String, String> headers();

    /** Extra query parameters, e.g. {@code agui.llm.query-params.api-version=2024-10-21} for Azure OpenAI. */
    Map<String, String> queryParams();

    /** Logs upstream requests and responses (they contain the conversation; never on in production). */
    @WithDefault("false")
    boolean logRequests();

    Demo demo();

    interface Demo {
        /**
         * Whether a server with no LLM configured answers with the scripted demo model; off, it does not start. The
         * standalone server turns it on; an application embedding it has it off, so that a missing key is found at
         * its start, not by its users.
         */
        @WithDefault("false")
        boolean enabled();

        /** Pause between the scripted model's chunks, so a newcomer sees streaming happen. */
        @WithDefault("15ms")
        Duration chunkDelay();
    }

    default boolean endpointConfigured() {
        return baseUrl().isPresent() || apiKey().isPresent();
    }
}
