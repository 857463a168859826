package dev.aguistate.store.postgres;

import dev.aguistate.store.ThreadSignal;
import dev.aguistate.store.ThreadSignals;
import dev.aguistate.store.StoreCalls;
import dev.aguistate.store.LocalThreadSignals;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Signals about threads' runs through PostgreSQL {@code NOTIFY} on the channel {@code agui_thread_signals},
 * received on the replica's listening connection ({@link PgSubscriber}, shared with {@link PostgresRunEventLog}). A
 * signal sent while that connection is down is missed, as {@link ThreadSignals} allows.
 */
public final class PostgresThreadSignals implements ThreadSignals {

    static final String CHANNEL = "agui_thread_signals";
    private static final String SEND = "SELECT pg_notify('agui_thread_signals', $1)";

    private final PooledStatements statements;
    private final Duration timeout;
    private final LocalThreadSignals listeners = new LocalThreadSignals();

    /** Listens on {@code subscriber}, which the caller connects and closes. */
    public PostgresThreadSignals(Pool pool, PgSubscriber subscriber, Duration timeout) {
        this.statements = new PooledStatements(pool);
        this.timeout = timeout;
        subscriber.channel(CHANNEL).handler(listeners::deliver);
    }

    @Override
    public Uni<Void> send(ThreadSignal signal) {
        return StoreCalls.timed(statements.execute(SEND, Tuple.of(signal.wire())), timeout).replaceWithVoid();
    }

    @Override
    public void listen(Consumer<ThreadSignal> listener) {
        listeners.listen(listener);
    }
}
