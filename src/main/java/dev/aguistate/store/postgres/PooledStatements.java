package dev.aguistate.store.postgres;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * How the PostgreSQL stores run a statement: on a connection their pool lends for it. Not with the pool's own
 * {@code query} and {@code preparedQuery}: in vertx-sql-client 4.5 those complete their result twice whenever
 * waiting for a connection fails, once by the wait's timer ({@code PoolOptions#setConnectionTimeout}) and once by
 * the connection's failure, whichever comes second (eclipse-vertx/vertx-sql-client#1706), and Vert.x logs each
 * second completion as an unhandled {@code IllegalStateException: Result is already complete}: one per call while
 * the server is down, hundreds a second. A lent connection's wait ends once, and is taken out of the pool's queue
 * when it times out.
 */
final class PooledStatements {

    private final Pool pool;

    PooledStatements(Pool pool) {
        this.pool = pool;
    }

    Uni<RowSet<Row>> execute(String sql, Tuple arguments) {
        return pool.withConnection(connection -> connection.preparedQuery(sql).execute(arguments));
    }

    Uni<RowSet<Row>> execute(String sql) {
        return pool.withConnection(connection -> connection.query(sql).execute());
    }
}
