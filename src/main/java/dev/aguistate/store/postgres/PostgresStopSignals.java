package dev.aguistate.store.postgres;

import dev.aguistate.store.StopSignals;
import dev.aguistate.store.StoreCalls;
import dev.aguistate.store.LocalStopSignals;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Stop requests through PostgreSQL {@code NOTIFY} on the channel {@code agui_run_stop}, received on the replica's
 * listening connection ({@link PgSubscriber}, shared with {@link PostgresRunEventLog}). A request sent while that
 * connection is down is missed, as {@link StopSignals} allows.
 */
public final class PostgresStopSignals implements StopSignals {

    static final String CHANNEL = "agui_run_stop";
    private static final String SEND = "SELECT pg_notify('agui_run_stop', $1)";

    private final PooledStatements statements;
    private final Duration timeout;
    private final LocalStopSignals listeners = new LocalStopSignals();

    /** Listens on {@code subscriber}, which the caller connects and closes. */
    public PostgresStopSignals(Pool pool, PgSubscriber subscriber, Duration timeout) {
        this.statements = new PooledStatements(pool);
        this.timeout = timeout;
        subscriber.channel(CHANNEL).handler(listeners::deliver);
    }

    @Override
    public Uni<Void> send(String key) {
        return StoreCalls.timed(statements.execute(SEND, Tuple.of(key)), timeout).replaceWithVoid();
    }

    @Override
    public void listen(Consumer<String> onStop) {
        listeners.listen(onStop);
    }
}
