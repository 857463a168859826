package dev.aguistate.store.redis;

import dev.aguistate.store.ConversationSummary;
import dev.aguistate.store.RunLock;
import dev.aguistate.store.ScopedState;
import dev.aguistate.store.SerializedCommit;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.SummaryLock;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadInfo;
import dev.aguistate.store.ThreadJson;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.store.ThreadBackend;
import dev.aguistate.store.ThreadSummary;
import dev.aguistate.store.ThreadTooLarge;
import dev.aguistate.store.VersionConflict;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Threads in Redis, shared by all replicas. Keys, all under {@code agui:} so that the server can hold other data; a
 * thread's are under its owner's ({@code <owner>} with {@code %} and {@code :} escaped as {@code %25} and
 * {@code %3A}, so that it ends at the first colon):
 *
 * <ul>
 *   <li>{@code agui:user:<owner>:thread:<id>}: a hash of the thread, expiring {@code ttl} after its last commit or
 *       read;</li>
 *   <li>{@code agui:owner:<owner>}: a sorted set of the owner's thread ids, newest first;</li>
 *   <li>{@code agui:scope:<scope>}: a hash of a shared scope's state and version;</li>
 *   <li>{@code agui:user:<owner>:lock:<id>}: the token of the run that holds the thread, and the run's id, expiring
 *       with the claim;</li>
 *   <li>{@code agui:claims-given}: how many claims were taken, the ordinal in each claim's token;</li>
 *   <li>{@code agui:user:<owner>:summarizing:<id>}: the token of the replica that summarizes the thread, expiring
 *       likewise.</li>
 * </ul>
 *
 * <p>Threads stored before threads were keyed by owner ({@code agui:thread:<id>}) are moved to their owner's key at
 * start-up ({@link RedisKeyUpgrade}).
 *
 * <p>Whatever must be atomic is a Lua script ({@code src/main/resources/redis}). The scripts derive the owner
 * index's key from stored data, so this store needs one Redis server (or a Sentinel set), not a Redis Cluster.
 * The store owns its client and closes it.
 */
public final class RedisThreadStore implements ThreadBackend, AutoCloseable {

    private static final String USER = "agui:user:";
    private static final String THREAD = "thread:";
    private static final String OWNER = "agui:owner:";
    private static final String SCOPE = "agui:scope:";
    /** The number of claims all replicas took: each claim's ordinal ({@link RunLock#token(long)}). */
    private static final String CLAIMS_GIVEN = "agui:claims-given";
    private static final String LOCK = "lock:";
    private static final String SUMMARIZING = "summarizing:";

    private static final RedisScript COMMIT = RedisScript.named("commit");
    private static final RedisScript LOAD = RedisScript.named("load");
    private static final RedisScript LIST = RedisScript.named("list");
    private static final String CLAIM_SEPARATOR = " ";
    private static final RedisScript CLAIM = RedisScript.named("claim");
    private static final RedisScript UNLOCK = RedisScript.named("unlock");
    private static final RedisScript RENEW = RedisScript.named("renew");
    private static final RedisScript SAVE_SUMMARY = RedisScript.named("summary");
    private static final RedisScript SAVE_INFO = RedisScript.named("info");

    private final Redis redis;
    private final Duration ttl;
    private final long maxThreadBytes;

    public RedisThreadStore(Redis redis, Duration ttl, long maxThreadBytes) {
        this.redis = redis;
        this.ttl = ttl;
        this.maxThreadBytes = maxThreadBytes;
    }

    @Override
    public Uni<Optional<StoredThread>> load(ThreadKey thread) {
        return LOAD.run(redis, List.of(threadKey(thread)), List.of(millis(ttl), OWNER))
                .map(fields -> Optional.ofNullable(fields).map(found -> thread(thread.threadId(), found)));
    }

    /** The key of the thread's hash. */
    static String threadKey(ThreadKey thread) {
        return ownersKeys(thread.owner()) + THREAD + thread.threadId();
    }

    /** Where the owner's threads, claims and summarizing locks are: {@code agui:user:<escaped owner>:}. */
    private static String ownersKeys(String owner) {
        return USER + owner.replace("%", "%25").replace(":", "%3A") + ":";
    }

    /** {@code fields} as load.lua returns them. */
    private static StoredThread thread(String threadId, Response fields) {
        return new StoredThread(threadId, fields.get(0).toString(), fields.get(1).toString(),
                ThreadJson.state(fields.get(2).toString()), ThreadJson.messages(fields.get(3).toString()),
                ThreadJson.meta(fields.get(7) == null ? null : fields.get(7).toString()), fields.get(4).toLong(),
                instant(fields.get(5)), instant(fields.get(6)),
                ThreadJson.summary(text(fields.get(8))), ThreadJson.info(text(fields.get(9))));
    }

    /** A field's text; null when it is absent. */
    private static String text(Response field) {
        return field == null ? null : field.toString();
    }

    @Override
    public Uni<ScopedState> loadScope(String scope) {
        return redis.send(Request.cmd(Command.HMGET).arg(SCOPE + scope).arg("state").arg("version"))
                .map(fields -> fields.get(0) == null
                        ? new ScopedState(scope, JsonNodeFactory.instance.objectNode(), 0)
                        : new ScopedState(scope, ThreadJson.state(fields.get(0).toString()), fields.get(1).toLong()));
    }

    @Override
    public Uni<StoredThread> commit(ThreadCommit commit) {
        return Uni.createFrom().item(() -> SerializedCommit.of(commit, maxThreadBytes))
                .chain(json -> write(commit, json));
    }

    private Uni<StoredThread> write(ThreadCommit commit, SerializedCommit json) {
        StoredThread thread = commit.thread();
        List<String> keys = new ArrayList<>(List.of(threadKey(thread.key()), OWNER + thread.owner()));
        List<String> args = new ArrayList<>(List.of(thread.threadId(), Long.toString(commit.expectedVersion()),
                millis(ttl), thread.owner(), thread.agent(), ThreadJson.text(json.state()),
                ThreadJson.text(json.messages()), Integer.toString(thread.messages().size()),
                ThreadJson.text(json.meta()), Long.toString(json.threadBytes()), Long.toString(maxThreadBytes),
                Objects.requireNonNullElse(ThreadJson.run(thread.meta().lastRun()), "")));
        for (int n = 0; n < commit.scopes().size(); n++) {
            ThreadCommit.ScopeWrite write = commit.scopes().get(n);
            keys.add(SCOPE + write.scope());
            args.add(Long.toString(write.expectedVersion()));
            args.add(ThreadJson.text(json.scopeStates().get(n)));
        }
        return COMMIT.run(redis, keys, args).map(reply -> {
            if (reply.get(0).toString().equals("conflict")) {
                throw conflict(commit, reply.get(1).toInteger(), reply.get(2).toLong());
            }
            if (reply.get(0).toString().equals("too_large")) {
                throw new ThreadTooLarge("thread " + thread.threadId() + " with its summary", reply.get(1).toLong(),
                        maxThreadBytes);
            }
            return thread.described(ThreadJson.info(text(reply.get(4))))
                    .committed(reply.get(1).toLong(), instant(reply.get(2)), instant(reply.get(3)));
        });
    }

    /** {@code position} is 0 for the thread and n for the commit's n-th scope, as commit.lua reports it. */
    private static VersionConflict conflict(ThreadCommit commit, int position, long actual) {
        if (position == 0) {
            return new VersionConflict("thread " + commit.thread().threadId(), commit.expectedVersion(), actual);
        }
        ThreadCommit.ScopeWrite write = commit.scopes().get(position - 1);
        return new VersionConflict("scope " + write.scope(), write.expectedVersion(), actual);
    }

    /** The owner index keeps the id until a listing finds the thread gone (list.lua). */
    @Override
    public Uni<Boolean> saveInfo(ThreadKey thread, ThreadInfo expected, ThreadInfo info) {
        return SAVE_INFO.run(redis, List.of(threadKey(thread)), List.of(
                Objects.requireNonNullElse(ThreadJson.info(expected), ""),
                Objects.requireNonNullElse(ThreadJson.info(info), ""))).map(saved -> saved.toInteger() == 1);
    }

    @Override
    public Uni<Boolean> delete(ThreadKey thread) {
        return redis.send(Request.cmd(Command.DEL).arg(threadKey(thread))).map(deleted -> deleted.toLong() == 1);
    }

    @Override
    public Uni<List<ThreadSummary>> list(String owner, int offset, int limit) {
        return LIST.run(redis, List.of(OWNER + owner), List.of(Integer.toString(offset), Integer.toString(limit),
                        ownersKeys(owner) + THREAD, owner))
                .map(RedisThreadStore::summaries);
    }

    /** {@code page} as list.lua returns it. */
    private static List<ThreadSummary> summaries(Response page) {
        List<ThreadSummary> summaries = new ArrayList<>(page.size());
        for (Response fields : page) {
            summaries.add(new ThreadSummary(fields.get(0).toString(), fields.get(1).toString(),
                    fields.get(2).toLong(), fields.get(3).toInteger(), instant(fields.get(4)), instant(fields.get(5)),
                    ThreadJson.info(text(fields.get(6))), ThreadJson.run(text(fields.get(7)))));
        }
        return summaries;
    }

    @Override
    public Uni<Optional<RunLock>> tryLock(ThreadKey thread, String runId, Duration lockTtl) {
        String afterOrdinal = RunLock.afterOrdinal();
        // one round trip: the claim's value is its token (the ordinal the script takes, then afterOrdinal) and run id
        return CLAIM.run(redis, List.of(CLAIMS_GIVEN, claimKey(thread)),
                        List.of(afterOrdinal + CLAIM_SEPARATOR + runId, millis(lockTtl)))
                .map(ordinal -> ordinal == null ? Optional.<RunLock>empty()
                        : Optional.of(new RunLock(thread, runId, ordinal.toLong() + afterOrdinal)));
    }

    @Override
    public Uni<Optional<RunLock>> claim(ThreadKey thread) {
        return redis.send(Request.cmd(Command.GET).arg(claimKey(thread))).map(value -> {
            if (value == null) {
                return Optional.empty();
            }
            String[] tokenAndRun = value.toString().split(CLAIM_SEPARATOR, 2);
            return Optional.of(new RunLock(thread, tokenAndRun[1], tokenAndRun[0]));
        });
    }

    private static String claimKey(ThreadKey thread) {
        return ownersKeys(thread.owner()) + LOCK + thread.threadId();
    }

    @Override
    public Uni<Boolean> renew(RunLock lock, Duration lockTtl) {
        return RENEW.run(redis, List.of(claimKey(lock.thread())), List.of(claimValue(lock), millis(lockTtl)))
                .map(renewed -> renewed.toInteger() == 1);
    }

    @Override
    public Uni<Void> unlock(RunLock lock) {
        return UNLOCK.run(redis, List.of(claimKey(lock.thread())), List.of(claimValue(lock))).replaceWithVoid();
    }

    @Override
    public Uni<Boolean> saveSummary(ThreadKey thread, String previousThrough, ConversationSummary summary) {
        return SAVE_SUMMARY.run(redis, List.of(threadKey(thread)), List.of(previousThrough == null ? ""
                : previousThrough, ThreadJson.summary(summary), summary.throughMessageId(),
                Long.toString(maxThreadBytes))).map(saved -> {
                    if (saved.toLong() < 0) {
                        throw new ThreadTooLarge("thread " + thread.threadId() + " with its summary",
                                -saved.toLong(), maxThreadBytes);
                    }
                    return saved.toLong() == 1;
                });
    }

    @Override
    public Uni<Optional<SummaryLock>> tryLockSummary(ThreadKey thread, Duration lockTtl) {
        SummaryLock lock = new SummaryLock(thread, UUID.randomUUID().toString());
        return redis.send(Request.cmd(Command.SET).arg(summarizingKey(thread)).arg(lock.token())
                        .arg("NX").arg("PX").arg(lockTtl.toMillis()))
                .map(set -> set == null ? Optional.empty() : Optional.of(lock));
    }

    @Override
    public Uni<Void> unlockSummary(SummaryLock lock) {
        return UNLOCK.run(redis, List.of(summarizingKey(lock.thread())), List.of(lock.token())).replaceWithVoid();
    }

    private static String summarizingKey(ThreadKey thread) {
        return ownersKeys(thread.owner()) + SUMMARIZING + thread.threadId();
    }

    /** A claim's value: its token (which never holds the separator), then its run's id. */
    private static String claimValue(RunLock lock) {
        return lock.token() + CLAIM_SEPARATOR + lock.runId();
    }

    @Override
    public Uni<Void> ping() {
        return redis.send(Request.cmd(Command.PING)).replaceWithVoid();
    }

    @Override
    public void close() {
        redis.close();
    }

    private static String millis(Duration duration) {
        return Long.toString(duration.toMillis());
    }

    private static Instant instant(Response epochMillis) {
        return Instant.ofEpochMilli(epochMillis.toLong());
    }
}
