package dev.aguistate.agent;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** How state is shown to the LLM ({@code agui.state.*}). */
@ConfigMapping(prefix = "agui.state")
public interface StateConfig {

    /** The state system message; {@code {schema}} and {@code {state}} are replaced. Default: a built-in text. */
    Optional<String> promptTemplate();

    /** Longest state JSON put in front of the LLM; longer state is cut with a marker. */
    @WithDefault("16000")
    int promptMaxChars();
}
