package dev.aguistate.state;

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
     * Predicted STATE_DELTAs are coalesced: a change waits up to this long while a tool's arguments stream (0 = a
     * delta per argument chunk that changed the prediction, no pacing and no string budget). What is pending is
     * always sent before TOOL_CALL_END. Pacing and its guarantee: docs/predictive-state.md.
     */
    @WithDefault("250ms")
    Duration deltaInterval();

    /** Once a predicted string has shown this many characters, its further text waits up to long-text-delta-interval. */
    @WithDefault("2048")
    int longTextAfterChars();

    /** The deadline for the text of a long predicted string (the owner's bound, issue 31: updates at most 2 s apart). */
    @WithDefault("2s")
    Duration longTextDeltaInterval();

    /**
     * The STATE_DELTAs carrying one growing string total at most this many times its final size (JSON Patch cannot
     * append, so each update carries the whole string); when the deadlines would spend more, updates wait until
     * the string has grown enough. At least 3.
     */
    @WithDefault("16")
    int stringDeltaBudget();

    default DeltaPacing deltaPacing() {
        return new DeltaPacing(deltaInterval(), longTextAfterChars(), longTextDeltaInterval(), stringDeltaBudget());
    }
}
