package dev.aguistate.store.redis;

import dev.aguistate.store.LogFollowers;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.StoreCalls;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.RedisOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Run event logs in Redis, one stream per run, {@code agui:run:<key>}: an entry's id is {@code <seq>-1} (ids start
 * above 0-0, and seq 0 is a run's first entry), its one field {@code data} its JSON. An append is one script
 * ({@code redis/append.lua}); the stream keeps about {@code maxEvents} entries ({@code MAXLEN ~}: Redis trims whole
 * nodes of a stream, by default of 100 entries, so it keeps up to that many more) and expires {@code idleTtl} after
 * its latest append, or when the time {@link #expireAfter} gave it is up.
 *
 * <p>A follower has a connection of its own ({@code XREAD BLOCK} holds its connection while it waits, which would
 * starve the pool that other calls share), made by a client of its own, closed when the reader cancels, and named
 * {@code agui-follow:<key>} in {@code CLIENT LIST}. It blocks for at most {@code timeout} at a time, so a
 * connection whose server went silent fails the follow within twice the timeout.
 */
public final class RedisRunEventLog implements RunEventLog, AutoCloseable {

    private static final String STREAM = "agui:run:";
    private static final String FOLLOWER_NAME = "agui-follow:";
    private static final RedisScript APPEND = RedisScript.named("append");

    private final Vertx vertx;
    private final Redis redis;
    private final RedisOptions followerOptions;
    private final int maxEvents;
    private final Duration idleTtl;
    private final Duration timeout;

    /** {@code options}: the shared client's, from which followers' clients are made. */
    public RedisRunEventLog(Vertx vertx, RedisOptions options, int maxEvents, Duration idleTtl, Duration timeout) {
        this.vertx = vertx;
        this.redis = Redis.createClient(vertx, options);
        this.followerOptions = new RedisOptions(options).setMaxPoolSize(1).setMaxPoolWaiting(1);
        this.maxEvents = maxEvents;
        this.idleTtl = idleTtl;
        this.timeout = timeout;
    }

    @Override
    public Uni<Void> append(String key, List<LoggedEvent> entries) {
        List<String> args = new ArrayList<>(2 + 2 * entries.size());
        args.add(Integer.toString(maxEvents));
        args.add(Long.toString(idleTtl.toMillis()));
        for (LoggedEvent entry : entries) {
            args.add(Long.toString(entry.seq()));
            args.add(entry.json());
        }
        return timed(APPEND.run(redis, List.of(STREAM + key), args)).replaceWithVoid();
    }

    @Override
    public Uni<Void> expireAfter(String key, Duration ttl) {
        return timed(redis.send(Request.cmd(Command.PEXPIRE).arg(STREAM + key).arg(ttl.toMillis()))).replaceWithVoid();
    }

    @Override
    public Uni<List<LoggedEvent>> read(String key, long afterSeq, int max) {
        return timed(redis.send(Request.cmd(Command.XRANGE).arg(STREAM + key).arg(id(afterSeq + 1)).arg("+")
                .arg("COUNT").arg(max))).map(RedisRunEventLog::entries);
    }

    @Override
    public Multi<LoggedEvent> follow(String key, long afterSeq) {
        return Multi.createFrom().resource(() -> Redis.createClient(vertx, followerOptions),
                        client -> timed(client.connect().call(connection -> connection.send(
                                Request.cmd(Command.CLIENT).arg("SETNAME").arg(FOLLOWER_NAME + key))))
                                .onItem().transformToMulti(connection -> readOn(connection, key, afterSeq)))
                .withFinalizer(Redis::close);
    }

    /** Waits for entries above the cursor with {@code XREAD BLOCK}, again and again; the finalizer closes it. */
    private Multi<LoggedEvent> readOn(RedisConnection connection, String key, long afterSeq) {
        long[] cursor = {afterSeq};
        return Multi.createBy().repeating()
                .uni(() -> StoreCalls.timed(connection.send(Request.cmd(Command.XREAD)
                                        .arg("COUNT").arg(LogFollowers.BATCH).arg("BLOCK").arg(timeout.toMillis())
                                        .arg("STREAMS").arg(STREAM + key).arg(cursor[0] < 0 ? "0-0" : id(cursor[0]))),
                                timeout.multipliedBy(2))
                        .map(streams -> {
                            List<LoggedEvent> entries = streams == null ? List.of()
                                    : entries(streams.isMap() ? streams.get(STREAM + key) : streams.get(0).get(1));
                            if (!entries.isEmpty()) {
                                cursor[0] = entries.get(entries.size() - 1).seq();
                            }
                            return entries;
                        }))
                .indefinitely()
                .onItem().disjoint();
    }

    private static String id(long seq) {
        return seq + "-1";
    }

    /** Stream entries as XRANGE and XREAD give them: each its id and its fields. */
    private static List<LoggedEvent> entries(Response stream) {
        List<LoggedEvent> entries = new ArrayList<>(stream.size());
        for (Response entry : stream) {
            String id = entry.get(0).toString();
            entries.add(new LoggedEvent(Long.parseLong(id.substring(0, id.indexOf('-'))), entry.get(1).get(1).toString()));
        }
        return entries;
    }

    private <T> Uni<T> timed(Uni<T> call) {
        return StoreCalls.timed(call, timeout);
    }

    @Override
    public void close() {
        redis.close();
    }
}
