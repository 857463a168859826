package dev.aguistate.store.postgres;

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
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.data.Interval;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;

/**
 * Threads in PostgreSQL, shared by all replicas; the tables ({@code agui_threads}, {@code agui_scopes},
 * {@code agui_thread_locks}, {@code agui_summary_locks}) come from {@code db/migrations} through
 * {@link PostgresMigrator}. Threads, claims and summarizing locks are keyed by owner and thread id ({@link ThreadKey}).
 * Every statement below that names a thread takes its owner as {@code $1} and its id as {@code $2}.
 *
 * <p>A commit is one transaction of guarded writes: each {@code UPDATE} or {@code INSERT} only touches a row still
 * at the expected version (or still absent), and a write that touched nothing is a {@link VersionConflict} that
 * rolls everything back. Concurrent guarded writes to one row queue on its row lock and re-check the guard, so
 * exactly one wins. Time is the database's {@code now()}, one clock for all replicas. Expired rows are invisible at
 * once and deleted by {@link #deleteExpired()}. The store owns its pool and closes it.
 */
public final class PostgresThreadStore implements ThreadBackend, AutoCloseable {

    /**
     * Reads a thread and refreshes its expiry, but only when that moves it by more than $3 (a hundredth of the
     * TTL): a write waits for a WAL flush, and a run's load comes right after the previous run's commit set the
     * expiry anyway. The SELECT sees the row as it was before the UPDATE, which changes nothing it returns.
     */
    private static final String LOAD = """
            WITH refreshed AS (
                UPDATE agui_threads SET expires_at = now() + $3::interval
                WHERE owner = $1 AND thread_id = $2 AND expires_at > now()
                  AND expires_at < now() + $3::interval - $4::interval)
            SELECT agent, state::text, messages::text, meta::text, version, created_at, updated_at, summary::text,
                   info::text
            FROM agui_threads WHERE owner = $1 AND thread_id = $2 AND expires_at > now()""";

    // The write statements take the same $1..$8; json arrives as text ($n::text::json) because the driver would
    // encode a Java string as a JSON string.
    private static final String INSERT_THREAD = """
            INSERT INTO agui_threads AS t (owner, thread_id, agent, state, messages, message_count, version,
                                           created_at, updated_at, expires_at, meta)
            VALUES ($1, $2, $3, $4::text::json, $5::text::json, $6, 1, now(), now(), now() + $7::interval,
                    $8::text::json)
            ON CONFLICT (owner, thread_id) DO UPDATE
                SET (agent, state, messages, message_count, version, created_at, updated_at, expires_at,
                     meta, summary, summary_through, info)
                  = (excluded.agent, excluded.state, excluded.messages, excluded.message_count,
                     1, now(), now(), excluded.expires_at, excluded.meta, NULL, NULL, NULL)
                WHERE t.expires_at <= now() -- an expired thread that is not deleted yet counts as absent
            RETURNING version, created_at, updated_at, coalesce(octet_length(summary::text), 0) AS summary_bytes,
                      info::text""";

    private static final String UPDATE_THREAD = """
            UPDATE agui_threads
            SET agent = $3, state = $4::text::json, messages = $5::text::json, message_count = $6,
                version = version + 1, updated_at = now(), expires_at = now() + $7::interval, meta = $8::text::json
            WHERE owner = $1 AND thread_id = $2 AND version = $9 AND expires_at > now()
            RETURNING version, created_at, updated_at, coalesce(octet_length(summary::text), 0) AS summary_bytes,
                      info::text""";

    private static final String THREAD_VERSION = """
            SELECT version FROM agui_threads WHERE owner = $1 AND thread_id = $2 AND expires_at > now()""";

    private static final String LOAD_SCOPE = "SELECT state::text, version FROM agui_scopes WHERE scope = $1";

    private static final String INSERT_SCOPE = """
            INSERT INTO agui_scopes (scope, state, version) VALUES ($1, $2::text::json, 1)
            ON CONFLICT (scope) DO NOTHING""";

    private static final String UPDATE_SCOPE = """
            UPDATE agui_scopes SET state = $2::text::json, version = version + 1
            WHERE scope = $1 AND version = $3""";

    private static final String SCOPE_VERSION = "SELECT version FROM agui_scopes WHERE scope = $1";

    /** Deleting an expired row reports it as absent. */
    private static final String DELETE =
            "DELETE FROM agui_threads WHERE owner = $1 AND thread_id = $2 RETURNING expires_at > now()";

    private static final String LIST = """
            SELECT thread_id, agent, version, message_count, created_at, updated_at, info::text,
                   (meta -> 'lastRun')::text AS last_run
            FROM agui_threads
            WHERE owner = $1 AND expires_at > now()
            ORDER BY updated_at DESC, thread_id
            LIMIT $2 OFFSET $3""";

    /**
     * Takes the claim if there is none or it lapsed; returns a row only then, with the claim's token: the next
     * ordinal of {@code agui_claims_given}, then $3 ({@link RunLock#token(long)}).
     */
    private static final String LOCK = """
            INSERT INTO agui_thread_locks AS l (owner, thread_id, token, expires_at, run_id)
            VALUES ($1, $2, nextval('agui_claims_given') || '.' || $3, now() + $4::interval, $5)
            ON CONFLICT (owner, thread_id) DO UPDATE
                SET token = excluded.token, run_id = excluded.run_id, expires_at = excluded.expires_at
                WHERE l.expires_at <= now()
            RETURNING token""";

    private static final String CLAIM = """
            SELECT token, run_id FROM agui_thread_locks WHERE owner = $1 AND thread_id = $2 AND expires_at > now()""";

    private static final String UNLOCK =
            "DELETE FROM agui_thread_locks WHERE owner = $1 AND thread_id = $2 AND token = $3";

    private static final String RENEW = """
            UPDATE agui_thread_locks SET expires_at = now() + $4::interval
            WHERE owner = $1 AND thread_id = $2 AND token = $3 AND expires_at > now()""";

    /**
     * Only while the stored summary is the expected one, and the thread with it fits $5 bytes; the version and the
     * update time stay. Answers whether it saved, and what the thread without a summary takes when it found the
     * expected one (as the statement began): with {@code saved} false, that tells a summary too large from one that
     * moved on.
     */
    private static final String SAVE_SUMMARY = """
            WITH saved AS (
                UPDATE agui_threads SET summary = $4::text::json, summary_through = $5
                WHERE owner = $1 AND thread_id = $2 AND expires_at > now() AND summary_through IS NOT DISTINCT FROM $3
                  AND octet_length(state::text) + octet_length(messages::text) + coalesce(octet_length(meta::text), 0)
                      + octet_length($4::text) <= $6
                RETURNING 1)
            SELECT EXISTS (SELECT 1 FROM saved) AS saved,
                   (SELECT octet_length(state::text) + octet_length(messages::text)
                           + coalesce(octet_length(meta::text), 0)
                    FROM agui_threads
                    WHERE owner = $1 AND thread_id = $2 AND expires_at > now()
                      AND summary_through IS NOT DISTINCT FROM $3)
                       AS thread_bytes""";

    /** Only while the stored info is the expected one ($3, null for none); the version and the update time stay. */
    private static final String SAVE_INFO = """
            UPDATE agui_threads SET info = $4::text::json
            WHERE owner = $1 AND thread_id = $2 AND expires_at > now()
              AND info::jsonb IS NOT DISTINCT FROM $3::text::jsonb""";

    private static final String LOCK_SUMMARY = """
            INSERT INTO agui_summary_locks AS l (owner, thread_id, token, expires_at)
            VALUES ($1, $2, $3, now() + $4::interval)
            ON CONFLICT (owner, thread_id) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at
                WHERE l.expires_at <= now()
            RETURNING token""";

    private static final String UNLOCK_SUMMARY =
            "DELETE FROM agui_summary_locks WHERE owner = $1 AND thread_id = $2 AND token = $3";

    private static final String DELETE_LAPSED_SUMMARY_LOCKS = "DELETE FROM agui_summary_locks WHERE expires_at <= now()";

    private static final String DELETE_EXPIRED_THREADS = "DELETE FROM agui_threads WHERE expires_at <= now()";
    private static final String DELETE_LAPSED_LOCKS = "DELETE FROM agui_thread_locks WHERE expires_at <= now()";

    private static final String PING = "SELECT 1";

    private final Pool pool;
    private final PooledStatements statements;
    private final Interval ttl;
    private final Interval refreshSlack;
    private final long maxThreadBytes;

    public PostgresThreadStore(Pool pool, Duration ttl, long maxThreadBytes) {
        this.pool = pool;
        this.statements = new PooledStatements(pool);
        this.ttl = Interval.of(ttl);
        this.refreshSlack = Interval.of(ttl.dividedBy(100));
        this.maxThreadBytes = maxThreadBytes;
    }

    @Override
    public Uni<Optional<StoredThread>> load(ThreadKey thread) {
        return statements.execute(LOAD, key(thread).addValue(ttl).addValue(refreshSlack)).map(rows ->
                first(rows).map(row -> new StoredThread(thread.threadId(), thread.owner(), row.getString("agent"),
                        ThreadJson.state(row.getString("state")), ThreadJson.messages(row.getString("messages")),
                        ThreadJson.meta(row.getString("meta")), row.getLong("version"), instant(row, "created_at"),
                        instant(row, "updated_at"), ThreadJson.summary(row.getString("summary")),
                        ThreadJson.info(row.getString("info")))));
    }

    @Override
    public Uni<ScopedState> loadScope(String scope) {
        return statements.execute(LOAD_SCOPE, Tuple.of(scope)).map(rows -> first(rows)
                .map(row -> new ScopedState(scope, ThreadJson.state(row.getString("state")), row.getLong("version")))
                .orElseGet(() -> new ScopedState(scope, JsonNodeFactory.instance.objectNode(), 0)));
    }

    @Override
    public Uni<StoredThread> commit(ThreadCommit commit) {
        return Uni.createFrom().item(() -> SerializedCommit.of(commit, maxThreadBytes))
                .chain(json -> pool.withTransaction(connection -> writeThread(connection, commit, json)
                        .call(() -> writeScopes(connection, commit.scopes(), json.scopeStates()))));
    }

    private Uni<StoredThread> writeThread(SqlConnection connection, ThreadCommit commit, SerializedCommit json) {
        StoredThread thread = commit.thread();
        long expected = commit.expectedVersion();
        Tuple values = Tuple.from(List.of(thread.owner(), thread.threadId(), thread.agent(),
                ThreadJson.text(json.state()), ThreadJson.text(json.messages()), thread.messages().size(), ttl,
                ThreadJson.text(json.meta())));
        Uni<RowSet<Row>> write = expected == 0
                ? connection.preparedQuery(INSERT_THREAD).execute(values)
                : connection.preparedQuery(UPDATE_THREAD).execute(values.addLong(expected)); // as $9
        return guarded(connection, write, THREAD_VERSION, key(thread.key()), "thread " + thread.threadId(), expected)
                .map(rows -> {
                    Row row = rows.iterator().next();
                    long bytes = json.threadBytes() + row.getLong("summary_bytes");
                    if (bytes > maxThreadBytes) { // the transaction rolls back
                        throw new ThreadTooLarge("thread " + thread.threadId() + " with its summary", bytes,
                                maxThreadBytes);
                    }
                    return thread.described(ThreadJson.info(row.getString("info")))
                            .committed(row.getLong("version"), instant(row, "created_at"), instant(row, "updated_at"));
                });
    }

    /**
     * In scope order, so that two commits writing the same scopes cannot deadlock on their row locks;
     * {@code states} are the writes' serialized states, in the writes' order.
     */
    private Uni<Void> writeScopes(SqlConnection connection, List<ThreadCommit.ScopeWrite> writes,
                                  List<byte[]> states) {
        Uni<Void> all = Uni.createFrom().voidItem();
        for (int n : IntStream.range(0, writes.size()).boxed()
                .sorted(Comparator.comparing(n -> writes.get(n).scope())).toList()) {
            all = all.call(() -> writeScope(connection, writes.get(n), ThreadJson.text(states.get(n))));
        }
        return all;
    }

    private Uni<RowSet<Row>> writeScope(SqlConnection connection, ThreadCommit.ScopeWrite write, String state) {
        long expected = write.expectedVersion();
        Uni<RowSet<Row>> written = expected == 0
                ? connection.preparedQuery(INSERT_SCOPE).execute(Tuple.of(write.scope(), state))
                : connection.preparedQuery(UPDATE_SCOPE).execute(Tuple.of(write.scope(), state, expected));
        return guarded(connection, written, SCOPE_VERSION, Tuple.of(write.scope()), "scope " + write.scope(), expected);
    }

    /**
     * The write's rows if it touched one; otherwise a {@link VersionConflict} with the version that
     * {@code versionQuery} finds for {@code key} instead.
     */
    private static Uni<RowSet<Row>> guarded(SqlConnection connection, Uni<RowSet<Row>> write, String versionQuery,
                                            Tuple key, String what, long expected) {
        return write.chain(rows -> rows.rowCount() == 1 ? Uni.createFrom().item(rows)
                : connection.preparedQuery(versionQuery).execute(key).map(found -> {
                    long actual = first(found).map(row -> row.getLong("version")).orElse(0L);
                    throw new VersionConflict(what, expected, actual);
                }));
    }

    @Override
    public Uni<Boolean> saveInfo(ThreadKey thread, ThreadInfo expected, ThreadInfo info) {
        return statements.execute(SAVE_INFO, key(thread).addString(ThreadJson.info(expected))
                .addString(ThreadJson.info(info))).map(rows -> rows.rowCount() == 1);
    }

    @Override
    public Uni<Boolean> delete(ThreadKey thread) {
        return statements.execute(DELETE, key(thread))
                .map(rows -> first(rows).map(row -> row.getBoolean(0)).orElse(false));
    }

    @Override
    public Uni<List<ThreadSummary>> list(String owner, int offset, int limit) {
        return statements.execute(LIST, Tuple.of(owner, limit, offset)).map(rows ->
                StreamSupport.stream(rows.spliterator(), false).map(row -> new ThreadSummary(
                        row.getString("thread_id"), row.getString("agent"), row.getLong("version"),
                        row.getInteger("message_count"), instant(row, "created_at"), instant(row, "updated_at"),
                        ThreadJson.info(row.getString("info")), ThreadJson.run(row.getString("last_run"))))
                        .toList());
    }

    @Override
    public Uni<Optional<RunLock>> tryLock(ThreadKey thread, String runId, Duration lockTtl) {
        return statements.execute(LOCK, key(thread).addString(UUID.randomUUID().toString())
                        .addValue(Interval.of(lockTtl)).addString(runId))
                .map(rows -> rows.rowCount() == 1
                        ? Optional.of(new RunLock(thread, runId, rows.iterator().next().getString("token")))
                        : Optional.empty());
    }

    @Override
    public Uni<Optional<RunLock>> claim(ThreadKey thread) {
        return statements.execute(CLAIM, key(thread)).map(rows -> {
            Iterator<Row> found = rows.iterator();
            if (!found.hasNext()) {
                return Optional.empty();
            }
            Row row = found.next();
            return Optional.of(new RunLock(thread, row.getString("run_id"), row.getString("token")));
        });
    }

    @Override
    public Uni<Boolean> renew(RunLock lock, Duration lockTtl) {
        return statements.execute(RENEW, key(lock.thread()).addString(lock.token())
                        .addValue(Interval.of(lockTtl)))
                .map(rows -> rows.rowCount() == 1);
    }

    @Override
    public Uni<Void> unlock(RunLock lock) {
        return statements.execute(UNLOCK, key(lock.thread()).addString(lock.token())).replaceWithVoid();
    }

    @Override
    public Uni<Boolean> saveSummary(ThreadKey thread, String previousThrough, ConversationSummary summary) {
        return statements.execute(SAVE_SUMMARY, key(thread).addString(previousThrough)
                .addString(ThreadJson.summary(summary)).addString(summary.throughMessageId())
                .addLong(maxThreadBytes)).map(rows -> {
                    Row row = rows.iterator().next();
                    Long threadBytes = row.getLong("thread_bytes");
                    long bytes = threadBytes == null ? 0 : threadBytes + ThreadJson.summaryBytes(summary);
                    if (!row.getBoolean("saved") && bytes > maxThreadBytes) {
                        throw new ThreadTooLarge("thread " + thread.threadId() + " with its summary", bytes,
                                maxThreadBytes);
                    }
                    return row.getBoolean("saved");
                });
    }

    @Override
    public Uni<Optional<SummaryLock>> tryLockSummary(ThreadKey thread, Duration lockTtl) {
        SummaryLock lock = new SummaryLock(thread, UUID.randomUUID().toString());
        return statements.execute(LOCK_SUMMARY, key(thread).addString(lock.token())
                        .addValue(Interval.of(lockTtl)))
                .map(rows -> rows.rowCount() == 1 ? Optional.of(lock) : Optional.empty());
    }

    @Override
    public Uni<Void> unlockSummary(SummaryLock lock) {
        return statements.execute(UNLOCK_SUMMARY, key(lock.thread()).addString(lock.token())).replaceWithVoid();
    }

    /** Deletes expired threads and lapsed claims; returns how many threads went. Runs periodically. */
    public Uni<Integer> deleteExpired() {
        return statements.execute(DELETE_LAPSED_LOCKS)
                .chain(() -> statements.execute(DELETE_LAPSED_SUMMARY_LOCKS))
                .chain(() -> statements.execute(DELETE_EXPIRED_THREADS))
                .map(RowSet::rowCount);
    }

    @Override
    public Uni<Void> ping() {
        return statements.execute(PING).replaceWithVoid();
    }

    /** Closing sends each connection's Terminate message; there is nothing to wait for. */
    @Override
    public void close() {
        pool.closeAndForget();
    }

    /** {@code $1} and {@code $2} of every statement that names a thread; a new tuple, to add the rest to. */
    private static Tuple key(ThreadKey thread) {
        return Tuple.of(thread.owner(), thread.threadId());
    }

    private static Optional<Row> first(RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next());
    }

    private static Instant instant(Row row, String column) {
        return row.getOffsetDateTime(column).toInstant();
    }
}
