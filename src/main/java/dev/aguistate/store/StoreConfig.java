package dev.aguistate.store;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Where threads live ({@code agui.store.*}). */
@ConfigMapping(prefix = "agui.store")
public interface StoreConfig {

    enum Kind {
        /** One replica; nothing survives a restart. */
        MEMORY,
        /** Shared by several replicas. */
        REDIS,
        /** Shared by several replicas. */
        POSTGRES
    }

    @WithDefault("memory")
    Kind kind();

    /** A thread expires when it was neither read nor written for this long. */
    @WithDefault("7d")
    Duration ttl();

    /** A run's claim on its thread lapses after this long, so that a crashed replica cannot block the thread. */
    @WithDefault("5m")
    Duration lockTtl();

    /**
     * How long a run waits for its thread while another run holds it, before it is refused with 409. Covers a
     * client that aborts a run and at once starts the next: its new request can arrive before the server has
     * seen the old connection close.
     */
    @WithDefault("500ms")
    Duration lockWait();

    /**
     * The longest any call to Redis or PostgreSQL may take; a call that takes longer fails with
     * {@link StoreUnavailable}. Also the readiness check's limit. See docs/reliability.md.
     */
    @WithDefault("5s")
    Duration timeout();

    /**
     * The most a thread may take, as the UTF-8 JSON of its state, messages and metadata (likewise a shared scope's
     * state); a commit over it fails with {@link ThreadTooLarge}. 8 MiB.
     */
    @WithDefault("8388608")
    long maxThreadBytes();

    Memory memory();

    RunLog runLog();

    Redis redis();

    Postgres postgres();

    interface Memory {
        /** When full, the least recently used thread makes room. */
        @WithDefault("10000")
        int maxThreads();

        /**
         * The most the threads may take together, counted as {@link #maxThreadBytes()} counts one; when full, the
         * least recently used threads make room. Unset: a quarter of the maximum heap (see docs/reliability.md).
         */
        Optional<Long> maxBytes();
    }

    /** The run event logs ({@link RunEventLog}) in the same store. */
    interface RunLog {
        /** The most entries one run's log keeps; older ones go first (Redis: about this many, see docs/configuration.md). */
        @WithDefault("100000")
        int maxEvents();

        /**
         * A log whose run never ended (its replica crashed, or lost the store at the run's end) is removed this
         * long after its latest append. Each append moves it on, so it bounds a run's silence, not its length.
         */
        @WithDefault("1h")
        Duration idleTtl();

        /**
         * The most the in-memory store's logs may take together, counted as 64 bytes per entry plus two per
         * character of its JSON. Unset: a sixteenth of the maximum heap. See {@link InMemoryRunEventLog}.
         */
        Optional<Long> memoryMaxBytes();
    }

    interface Redis {
        /** {@code redis://[:password@]host:port[/db]}; required for kind redis. */
        Optional<String> url();

        /**
         * The connections on which this replica's followers of run logs wait for new events, each blocked in one
         * {@code XREAD} for many runs: however many clients follow runs, a replica holds no more for them.
         */
        @WithDefault("4")
        int followConnections();
    }

    interface Postgres {
        /** {@code postgresql://[user[:password]@]host:port/database}; required for kind postgres. */
        Optional<String> url();

        /** Overrides the URL's user. */
        Optional<String> user();

        /** Overrides the URL's password (so that it can come from a secret of its own). */
        Optional<String> password();
    }
}
