package dev.aguistate.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Where the server's routes are, and the run endpoint's HTTP limits ({@code agui.http.*}). */
@ConfigMapping(prefix = "agui.http")
public interface HttpConfig {

    /**
     * The path every route of the server is under ({@code {root}/agui/...}, {@code {root}/threads/...}, and CopilotKit's
     * unless its base path is absolute), so that an application that embeds the server keeps its own paths.
     */
    @WithDefault("/")
    String root();

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

    /**
     * Whether responses, event streams included, are compressed (gzip or deflate) for clients that send
     * {@code Accept-Encoding}; each frame is still flushed as it is written. Off by default: each compressed stream
     * holds a zlib deflater, 100 to 200 KB of native memory (0.2 to 0.4 GB at 2,000 streams), and the compact cursors
     * already keep a run's bytes near what other AG-UI servers send (docs/benchmarks.md, bytes on the wire).
     */
    @WithDefault("false")
    boolean compression();

    /** How much memory request bodies that have not arrived whole may take ({@code agui.http.pending-bodies.*}). */
    PendingBodiesConfig pendingBodies();

    interface PendingBodiesConfig {

        /**
         * The bytes all unfinished bodies together may hold; a body that would go over it gets 503. Unset: a
         * sixteenth of the maximum heap.
         */
        Optional<Long> maxBytes();

        /**
         * The bytes the unfinished bodies of one client address may hold; a body that would go over it gets 429. At
         * least {@link HttpConfig#maxRequestBytes()}, so that one body of the largest size is always held.
         */
        @WithDefault("4194304")
        long maxBytesPerClient();
    }
}
