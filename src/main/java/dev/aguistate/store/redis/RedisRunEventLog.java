package dev.aguistate.store.redis;

import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.StoreCalls;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
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
 * <p>Followers read with {@code XRANGE} on the shared client, and wait for more on {@code followConnections}
 * connections shared by all of this replica's followers ({@link RedisLogFollowers}: {@code XREAD BLOCK} holds its
 * connection while it waits, which would starve the pool that other calls share). A waiting follower reads again
 * every {@code timeout} anyway, so a follower of a server that went silent fails within twice the timeout.
 */
public final class RedisRunEventLog implements RunEventLog, AutoCloseable {

    private static final String STREAM = "agui:run:";
    private static final RedisScript APPEND = RedisScript.named("append");

    private final Redis redis;
    private final int maxEvents;
    private final Duration idleTtl;
    private final Duration timeout;
    private final RedisLogFollowers followers;

    /** {@code options}: the shared client's, from which the followers' connections are made. */
    public RedisRunEventLog(Vertx vertx, RedisOptions options, int maxEvents, Duration idleTtl, Duration timeout,
                            int followConnections) {
        this.redis = Redis.createClient(vertx, options);
        this.maxEvents = maxEvents;
        this.idleTtl = idleTtl;
        this.timeout = timeout;
        this.followers = new RedisLogFollowers(vertx, redis, options, followConnections, timeout, STREAM);
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
        return followers.follow(key, afterSeq, (after, max) -> read(key, after, max));
    }

    private static String id(long seq) {
        return seq + "-1";
    }

    /** The stream id that entries above {@code seq} come after ({@code XREAD} reads strictly after it). */
    static String after(long seq) {
        return seq < 0 ? "0-0" : id(seq);
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
        followers.close();
        redis.close();
    }
}
