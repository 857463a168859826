package dev.aguistate.run;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Optional;

/** How runs behave ({@code agui.run.*}). */
@ConfigMapping(prefix = "agui.run")
public interface RunConfig {

    /** LLM calls per run; a model still calling tools after this many ends the run with {@code max_rounds_exceeded}. */
    @WithDefault("10")
    int maxRounds();

    /**
     * The most messages of the conversation sent to the LLM (the first user message is always among them);
     * 0 sends all. The stored history is kept whole.
     */
    @WithName("context.max-messages")
    @WithDefault("0")
    int contextMaxMessages();

    /**
     * Messages older than this (since they first reached the server) are not sent to the LLM; the first user
     * message always is. Absent: no age limit. The stored history is kept whole.
     */
    @WithName("context.max-age")
    Optional<Duration> contextMaxAge();

    /** How long a confirmation may wait for the user's answer (the interrupt's {@code expiresAt}). */
    @WithName("confirmation.expires-after")
    @WithDefault("P1D")
    Duration confirmationExpiresAfter();

    default ContextWindow contextWindow() {
        return new ContextWindow(contextMaxMessages(), contextMaxAge().orElse(null));
    }
}
