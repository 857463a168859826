package dev.aguistate.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The run endpoint's HTTP limits ({@code agui.http.*}). */
@ConfigMapping(prefix = "agui.http")
public interface HttpConfig {

    /** Largest accepted run request body, in bytes; larger ones get 413. */
    @WithDefault("1048576")
    int maxRequestBytes();

    /** A {@code :} comment is sent after this much silence so proxies keep the stream open; 0 disables it. */
    @WithDefault("15s")
    Duration keepAlive();
}
