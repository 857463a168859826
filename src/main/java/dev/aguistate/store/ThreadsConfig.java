package dev.aguistate.store;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What the owner may say about a thread beside its conversation ({@code agui.threads.*}, docs/threads.md). */
@ConfigMapping(prefix = "agui.threads")
public interface ThreadsConfig {

    /** The most a thread's metadata may take, as compact UTF-8 JSON; a change past it is refused (413). */
    @WithDefault("4096")
    int maxMetadataBytes();

    /**
     * Whether a thread without a name is given one after its first exchange, by a short call to the model
     * ({@code agui.llm.*}) that nobody waits for.
     */
    @WithDefault("false")
    boolean autoName();
}
