package dev.aguistate.run;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** How state is shown to the LLM ({@code agui.state.*}). */
@ConfigMapping(prefix = "agui.state")
public interface StateConfig {

    /** The state system message; {@code {schema}} and {@code {state}} are replaced. Default: a built-in text. */
    Optional<String> promptTemplate();

    /** Longest state JSON put in front of the LLM; longer state is cut with a marker. */
    @WithDefault("16000")
    int promptMaxChars();

    /**
     * Predicted STATE_DELTAs are coalesced: at most one per interval while a tool's arguments stream (0 = one per
     * argument chunk that changed the prediction). The last one is always sent before TOOL_CALL_END. The
     * default trades about 120 ms of visible latency for 5x fewer bytes than 50 ms on long documents
     * (measurements in docs/predictive-state.md).
     */
    @WithDefault("250ms")
    Duration deltaInterval();
}
