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

    /**
     * How long the whole run request body may take to arrive, from the end of its headers; a slower one gets 408
     * and its connection is closed. Bounds how long a client can hold a connection and its partly read body.
     */
    @WithDefault("60s")
    Duration requestBodyTimeout();

    /** A {@code :} comment is sent after this much silence so proxies keep the stream open; 0 disables it. */
    @WithDefault("15s")
    Duration keepAlive();
}
