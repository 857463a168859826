package dev.aguistate.agent;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How runs behave ({@code agui.run.*}). */
@ConfigMapping(prefix = "agui.run")
public interface RunConfig {

    /** LLM calls per run; a model still calling tools after this many ends the run with {@code max_rounds_exceeded}. */
    @WithDefault("10")
    int maxRounds();
}
