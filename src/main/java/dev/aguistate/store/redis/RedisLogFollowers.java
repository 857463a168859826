package dev.aguistate.store.redis;

import dev.aguistate.mutiny.BoundedConcurrency;
import dev.aguistate.store.LogFollowers;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.OutageLog;
import dev.aguistate.store.StoreCalls;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.RedisOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * This replica's followers of Redis run logs: {@link LogFollowers}, told when their streams grow over a bounded
 * number of connections: {@code connections} readers, each blocked in one {@code XREAD} over the streams whose
 * followers wait (all followers of a log go to the same reader, by its key), each named {@code agui-follow} in
 * {@code CLIENT LIST}. A reader asks for one entry above the lowest cursor waiting on each of its streams, so an
 * entry appended before it asked is not missed; it only wakes the followers, which then read their entries through
 * the shared client as fast as their clients take them, at most {@link #CONCURRENT_READS} at a time (a wake of many
 * followers queues here, not in the client's pool, where it would crowd out appends and overflow its queue). A
 * follower that starts waiting on a stream its reader does
 * not ask about (or with a lower cursor) unblocks the reader ({@code CLIENT UNBLOCK}), which asks again with it.
 *
 * <p>A reader connects when it first has a stream to watch, blocks for at most {@code timeout} at a time and must
 * answer within twice it; one that fails connects again a second later. Meanwhile its followers read again every
 * {@code timeout} anyway (their {@link LogFollowers} recheck), so they go on, late, while Redis answers, and fail
 * when it does not.
 */
final class RedisLogFollowers implements LogFollowers.Watch, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RedisLogFollowers.class);
    private static final String NAME = "agui-follow";
    private static final Duration RECONNECT_AFTER = Duration.ofSeconds(1);
    /** Fewer than the shared client's pool (6 connections), so that appends and claims always find one. */
    static final int CONCURRENT_READS = 4;
    private static final OutageLog READERS = new OutageLog(LOG, "watching Redis run logs for their followers",
            "followers read again every agui.store.timeout instead of at once; a reader connects again every "
                    + RECONNECT_AFTER.toSeconds() + " s");

    private final Vertx vertx;
    private final Redis shared;
    private final RedisOptions readerOptions;
    private final Duration timeout;
    private final String streamPrefix;
    private final LogFollowers followers;
    private final Reader[] readers;
    private final BoundedConcurrency reads = new BoundedConcurrency(CONCURRENT_READS);

    /**
     * @param shared       the client that unblocks readers
     * @param options      the shared client's options, from which each reader's client is made
     * @param streamPrefix what a log's key is prefixed with in its stream's name
     */
    RedisLogFollowers(Vertx vertx, Redis shared, RedisOptions options, int connections, Duration timeout,
                      String streamPrefix) {
        if (connections < 1) {
            throw new IllegalArgumentException("agui.store.redis.follow-connections must be at least 1: " + connections);
        }
        this.vertx = vertx;
        this.shared = shared;
        this.readerOptions = new RedisOptions(options).setMaxPoolSize(1).setMaxPoolWaiting(1);
        this.timeout = timeout;
        this.streamPrefix = streamPrefix;
        this.readers = new Reader[connections];
        for (int n = 0; n < connections; n++) {
            readers[n] = new Reader(n);
        }
        this.followers = new LogFollowers(Optional.of(timeout), this);
    }

    /** The log {@code key}'s entries above {@code afterSeq}, read with {@code reader}; see {@link LogFollowers}. */
    Multi<LoggedEvent> follow(String key, long afterSeq, LogFollowers.Reader reader) {
        return followers.follow(key, afterSeq, (after, max) -> reads.run(() -> reader.read(after, max)));
    }

    @Override
    public void waiting(String key, long afterSeq) {
        readerOf(key).waiting(key, afterSeq);
    }

    @Override
    public void forgotten(String key) {
        readerOf(key).forgotten(key);
    }

    private Reader readerOf(String key) {
        return readers[Math.floorMod(key.hashCode(), readers.length)];
    }

    @Override
    public void close() {
        for (Reader reader : readers) {
            reader.close();
        }
    }

    /** One connection blocked in {@code XREAD} for the streams it watches. */
    private final class Reader {

        private final int number;
        /** Each watched stream's log key, with the lowest cursor a follower waits at; guarded by this. */
        private final Map<String, Long> watched = new HashMap<>();
        private Redis client;
        private RedisConnection connection;
        private long clientId;
        private boolean started;
        private boolean blocked;
        private boolean unblocking;
        private boolean closed;
        /** Completes the reader's wait for a first stream to watch. */
        private UniEmitter<? super Void> idle;

        Reader(int number) {
            this.number = number;
        }

        void waiting(String key, long afterSeq) {
            boolean connect;
            long unblock = -1;
            UniEmitter<? super Void> woken;
            synchronized (this) {
                Long asked = watched.get(key);
                if (closed || asked != null && asked <= afterSeq) {
                    return;
                }
                watched.put(key, afterSeq);
                connect = !started;
                started = true;
                if (blocked && !unblocking) {
                    unblocking = true;
                    unblock = clientId;
                }
                woken = idle;
                idle = null;
            }
            if (connect) {
                connect();
            }
            if (woken != null) {
                woken.complete(null);
            }
            if (unblock >= 0) { // the reply to the blocked XREAD (nil) makes the reader ask again, with this stream
                StoreCalls.timed(shared.send(Request.cmd(Command.CLIENT).arg("UNBLOCK").arg(unblock)), timeout)
                        .subscribe().with(done -> { }, failure -> LOG.debugf("unblocking follow reader %d failed: %s",
                                number, failure));
            }
        }

        /** The reader stops asking about the stream when it asks next. */
        synchronized void forgotten(String key) {
            watched.remove(key);
        }

        private void connect() {
            Redis created = Redis.createClient(vertx, readerOptions);
            synchronized (this) {
                if (closed) {
                    created.close();
                    return;
                }
                client = created;
            }
            StoreCalls.timed(created.connect()
                            .call(opened -> opened.send(Request.cmd(Command.CLIENT).arg("SETNAME").arg(NAME)))
                            .chain(opened -> opened.send(Request.cmd(Command.CLIENT).arg("ID")).map(id -> {
                                synchronized (this) {
                                    connection = opened;
                                    clientId = id.toLong();
                                }
                                return opened;
                            })), timeout)
                    .subscribe().with(opened -> {
                        READERS.succeeded();
                        Multi.createBy().repeating().uni(this::round).whilst(goOn -> goOn)
                                .subscribe().with(goOn -> { }, this::failed);
                    }, this::failed);
        }

        /**
         * Waits for a stream to watch, or asks once whether the watched ones grew and wakes their followers; false
         * once the reader is closed.
         */
        private Uni<Boolean> round() {
            Map<String, Long> asked;
            RedisConnection reading;
            synchronized (this) {
                if (closed) {
                    return Uni.createFrom().item(false);
                }
                if (watched.isEmpty()) {
                    return Uni.createFrom().<Void>emitter(this::idle).replaceWith(true);
                }
                asked = new LinkedHashMap<>(watched);
                reading = connection;
                blocked = true;
            }
            Request read = Request.cmd(Command.XREAD).arg("COUNT").arg(1).arg("BLOCK").arg(timeout.toMillis())
                    .arg("STREAMS");
            asked.keySet().forEach(key -> read.arg(streamPrefix + key));
            asked.values().forEach(cursor -> read.arg(RedisRunEventLog.after(cursor)));
            return StoreCalls.timed(reading.send(read), timeout.multipliedBy(2)).map(reply -> {
                List<String> grown = grown(reply);
                synchronized (this) {
                    blocked = false;
                    unblocking = false;
                    grown.forEach(watched::remove); // their followers read, and wait again where they got to
                }
                grown.forEach(followers::wake);
                return true;
            });
        }

        private void idle(UniEmitter<? super Void> emitter) {
            synchronized (this) {
                if (watched.isEmpty() && !closed) {
                    idle = emitter;
                    return;
                }
            }
            emitter.complete(null);
        }

        /** The log keys of the streams in an {@code XREAD} reply: those that grew; none when it timed out. */
        private List<String> grown(Response reply) {
            List<String> keys = new ArrayList<>();
            if (reply == null) {
                return keys;
            }
            if (reply.isMap()) {
                reply.getKeys().forEach(stream -> keys.add(stream.substring(streamPrefix.length())));
            } else {
                for (Response stream : reply) {
                    keys.add(stream.get(0).toString().substring(streamPrefix.length()));
                }
            }
            return keys;
        }

        private void failed(Throwable failure) {
            Redis failedClient;
            synchronized (this) {
                failedClient = client;
                client = null;
                connection = null;
                blocked = false;
                unblocking = false;
                if (closed) {
                    return;
                }
            }
            READERS.failed("reader " + number, failure);
            if (failedClient != null) {
                failedClient.close();
            }
            vertx.setTimer(RECONNECT_AFTER.toMillis(), timer -> connect());
        }

        void close() {
            Redis open;
            UniEmitter<? super Void> waiting;
            synchronized (this) {
                closed = true;
                open = client;
                client = null;
                waiting = idle;
                idle = null;
            }
            if (waiting != null) {
                waiting.complete(null);
            }
            if (open != null) {
                open.close();
            }
        }
    }
}
