package dev.aguistate.store.postgres;

import dev.aguistate.store.LogFollowers;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.StoreCalls;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.data.Interval;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Run event logs in PostgreSQL: {@code agui_run_events} holds the entries, {@code agui_run_logs} each log's expiry
 * (migration V4). An append is one statement, so one transaction: it inserts the entries (skipping those the log
 * holds already, so a repeated append changes nothing), moves the log's expiry to {@code idleTtl} from now, deletes
 * the entries that fell out of the last {@code maxEvents}, and notifies {@code agui_run_events} with the log's key,
 * which PostgreSQL delivers when it commits.
 *
 * <p>Followers wait for that notification, which this replica receives on its one listening connection
 * ({@link PgSubscriber}, shared with {@link PostgresThreadSignals}), and then read what is new. A notification sent
 * while that connection was down is lost, so a waiting follower also reads again every {@link #RECHECK_EVERY}, and
 * all of them do when the connection is back; that also makes a follower of an unreachable store fail. Expired
 * logs read as empty at once; {@link #deleteExpired()} deletes them.
 */
public final class PostgresRunEventLog implements RunEventLog {

    static final String CHANNEL = "agui_run_events";
    static final Duration RECHECK_EVERY = Duration.ofSeconds(2);

    /** $5: entries up to this seq fall out of the log's bound. Data-modifying CTEs all run, referenced or not. */
    private static final String APPEND = """
            WITH log AS (
                INSERT INTO agui_run_logs AS l (run_key, expires_at) VALUES ($1, now() + $4::interval)
                ON CONFLICT (run_key) DO UPDATE SET expires_at = excluded.expires_at),
            added AS (
                INSERT INTO agui_run_events (run_key, seq, json)
                SELECT $1, seq, json FROM unnest($2::bigint[], $3::text[]) AS entry(seq, json)
                ON CONFLICT (run_key, seq) DO NOTHING),
            dropped AS (
                DELETE FROM agui_run_events WHERE run_key = $1 AND seq <= $5)
            SELECT pg_notify('agui_run_events', $1)""";

    private static final String EXPIRE = """
            UPDATE agui_run_logs SET expires_at = now() + $2::interval WHERE run_key = $1 AND expires_at > now()""";

    private static final String READ = """
            SELECT seq, json FROM agui_run_events
            WHERE run_key = $1 AND seq > $2
              AND EXISTS (SELECT 1 FROM agui_run_logs WHERE run_key = $1 AND expires_at > now())
            ORDER BY seq LIMIT $3""";

    private static final String DELETE_EXPIRED = """
            WITH gone AS (DELETE FROM agui_run_logs WHERE expires_at <= now() RETURNING run_key)
            DELETE FROM agui_run_events e USING gone WHERE e.run_key = gone.run_key""";

    private final PooledStatements statements;
    private final int maxEvents;
    private final Interval idleTtl;
    private final Duration timeout;
    private final LogFollowers followers = new LogFollowers(Optional.of(RECHECK_EVERY), LogFollowers.Watch.NONE);

    /** Listens on {@code subscriber}, which the caller connects and closes. */
    public PostgresRunEventLog(Pool pool, PgSubscriber subscriber, int maxEvents, Duration idleTtl, Duration timeout) {
        this.statements = new PooledStatements(pool);
        this.maxEvents = maxEvents;
        this.idleTtl = Interval.of(idleTtl);
        this.timeout = timeout;
        subscriber.channel(CHANNEL).handler(followers::wake).subscribeHandler(followers::wakeAll);
    }

    @Override
    public Uni<Void> append(String key, List<LoggedEvent> entries) {
        if (entries.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<LoggedEvent> kept = entries.subList(Math.max(0, entries.size() - maxEvents), entries.size());
        Long[] seqs = new Long[kept.size()];
        String[] jsons = new String[kept.size()];
        for (int n = 0; n < kept.size(); n++) {
            seqs[n] = kept.get(n).seq();
            jsons[n] = kept.get(n).json();
        }
        long dropUpTo = seqs[seqs.length - 1] - maxEvents;
        return timed(statements.execute(APPEND, Tuple.of(key, seqs, jsons, idleTtl, dropUpTo)))
                .replaceWithVoid();
    }

    @Override
    public Uni<Void> expireAfter(String key, Duration ttl) {
        return timed(statements.execute(EXPIRE, Tuple.of(key, Interval.of(ttl)))).replaceWithVoid();
    }

    @Override
    public Uni<List<LoggedEvent>> read(String key, long afterSeq, int max) {
        return timed(statements.execute(READ, Tuple.of(key, afterSeq, max))).map(rows -> {
            List<LoggedEvent> entries = new ArrayList<>(rows.size());
            for (Row row : rows) {
                entries.add(new LoggedEvent(row.getLong("seq"), row.getString("json")));
            }
            return entries;
        });
    }

    @Override
    public Multi<LoggedEvent> follow(String key, long afterSeq) {
        return followers.follow(key, afterSeq, (after, max) -> read(key, after, max));
    }

    /** Deletes expired logs; returns how many entries went. Runs periodically. */
    public Uni<Integer> deleteExpired() {
        return timed(statements.execute(DELETE_EXPIRED)).map(RowSet::rowCount);
    }

    /** How many followers wait in this replica. */
    int followers() {
        return followers.count();
    }

    private <T> Uni<T> timed(Uni<T> call) {
        return StoreCalls.timed(call, timeout);
    }
}
