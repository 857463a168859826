package dev.aguistate.store.postgres;

import dev.aguistate.store.ClasspathText;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.List;

/**
 * Brings the PostgreSQL schema up to date at start-up with the SQL files in {@code src/main/resources/db/migrations}.
 * Each migration runs once per database, in its own transaction together with its row in
 * {@code agui_schema_migrations}. Every transaction first takes a transaction-scoped advisory lock, so replicas that
 * start together take turns: the second one sees the first one's row and skips the migration.
 *
 * <p>Not Flyway: quarkus-flyway needs JDBC and Agroal, a blocking second connection pool beside the reactive one,
 * for what takes these few lines.
 */
public final class PostgresMigrator {

    /** In the order they apply; a new migration is a new file, added at the end. */
    private static final List<String> MIGRATIONS = List.of("V1__threads.sql", "V2__thread_meta.sql", "V3__claim_run.sql",
            "V4__run_events.sql", "V5__thread_summary.sql", "V6__threads_by_owner.sql", "V7__thread_info.sql",
            "V8__claims_given.sql");

    /** Any constant that other users of the database do not lock on: "agui" in ASCII. */
    private static final long LOCK_KEY = 0x61677569L;

    /** Held until the transaction ends. */
    private static final String LOCK = "SELECT pg_advisory_xact_lock($1)";

    /** Quietly: the notice that the table exists, at every start, would be logged as a warning. */
    private static final String CREATE_HISTORY = """
            SET LOCAL client_min_messages = warning;
            CREATE TABLE IF NOT EXISTS agui_schema_migrations (
                version    integer     PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now()
            )""";

    private static final String APPLIED = "SELECT 1 FROM agui_schema_migrations WHERE version = $1";
    private static final String RECORD = "INSERT INTO agui_schema_migrations (version) VALUES ($1)";

    private record Migration(int version, String file, String sql) {}

    private final List<Migration> migrations = MIGRATIONS.stream().map(PostgresMigrator::read).toList();

    /** Applies the migrations this database lacks, one after the other. */
    public Uni<Void> migrate(Pool pool) {
        Uni<Void> all = Uni.createFrom().voidItem();
        for (Migration migration : migrations) {
            all = all.chain(() -> pool.withTransaction(connection -> applyOnce(connection, migration))
                    .onFailure().transform(failure -> new IllegalStateException(
                            "PostgreSQL migration " + migration.file() + " failed: " + failure.getMessage(), failure)));
        }
        return all;
    }

    private static Uni<Void> applyOnce(SqlConnection connection, Migration migration) {
        // The history table is created under the lock too: concurrent CREATE TABLE IF NOT EXISTS can still collide.
        return connection.preparedQuery(LOCK).execute(Tuple.of(LOCK_KEY))
                .chain(() -> connection.query(CREATE_HISTORY).execute())
                .chain(() -> connection.preparedQuery(APPLIED).execute(Tuple.of(migration.version())))
                .chain(applied -> applied.size() > 0 ? Uni.createFrom().voidItem() : apply(connection, migration));
    }

    private static Uni<Void> apply(SqlConnection connection, Migration migration) {
        return connection.query(migration.sql()).execute()
                .chain(() -> connection.preparedQuery(RECORD).execute(Tuple.of(migration.version())))
                .replaceWithVoid();
    }

    /** {@code V<version>__<what>.sql}. */
    private static Migration read(String file) {
        int version = Integer.parseInt(file.substring(1, file.indexOf("__")));
        return new Migration(version, file, ClasspathText.read("/db/migrations/" + file));
    }
}
