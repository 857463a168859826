package dev.aguistate.summary;

import dev.aguistate.agent.SummaryPolicy;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * When and how threads' earlier conversation is summarized ({@code agui.run.summary.*}); an agent may set its own
 * thresholds. Off unless a threshold is set. See docs/long-conversations.md.
 */
@ConfigMapping(prefix = "agui.run.summary")
public interface SummaryConfig {

    /** Summarize once this many messages are not yet summarized; 0: no message threshold. */
    @WithDefault("0")
    int afterMessages();

    /** Summarize once the messages not yet summarized are estimated at this many tokens; 0: no token threshold. */
    @WithDefault("0")
    int afterTokens();

    /** The latest messages that are never summarized: the LLM gets them as they are. */
    @WithDefault("10")
    int keepRecent();

    /** The model that writes summaries, at the same endpoint (a cheaper one); unset: {@code agui.llm.model}. */
    Optional<String> model();

    /** The longest summary, in output tokens, as the model is asked for it. */
    @WithDefault("1000")
    int maxTokens();

    /**
     * The most characters of a summary that are read from the model, whether or not it honours
     * {@link #maxTokens()}: the rest is not read (the call is cancelled) and the summary ends there, as a model's own
     * limit would have ended it. A stored summary longer than this (from an upstream that ignored the limit before
     * it was read so) is not used. Unset: {@value #CHARS_PER_TOKEN} per {@code max-tokens}.
     */
    OptionalInt maxChars();

    /** More than a token of ordinary text ever takes: what the limit in characters allows per token. */
    int CHARS_PER_TOKEN = 16;

    /** {@link #maxChars()}, or what {@link #maxTokens()} allows. */
    default int charLimit() {
        return maxChars().orElse(maxTokens() * CHARS_PER_TOKEN);
    }

    /** A summarization that takes longer is given up (the run that follows uses the budget trimming instead). */
    @WithDefault("2m")
    Duration timeout();

    default SummaryPolicy policy() {
        return new SummaryPolicy(afterMessages(), afterTokens(), keepRecent(), model().orElse(null));
    }
}
