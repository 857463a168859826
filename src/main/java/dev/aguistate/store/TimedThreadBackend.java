package dev.aguistate.store;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A backend on a server (Redis, PostgreSQL) whose every call answers within {@code timeout}: one that takes longer
 * fails with {@link StoreUnavailable}, and so does any failure that is not a {@link StoreFailure} already (a lost
 * connection, a server error). The clients' connections are set up to match (see store.wiring.ThreadStoreProducer):
 * a connection silent for longer than a call may take is closed, so a call that timed out does not hold it.
 *
 * <p>A timed-out call may still reach the server later, as network packets in flight do; every call is atomic on
 * the server, so a timed-out commit is applied wholly or not at all.
 */
public final class TimedThreadBackend implements ThreadBackend, AutoCloseable {

    private final ThreadBackend store;
    private final Duration timeout;

    public TimedThreadBackend(ThreadBackend store, Duration timeout) {
        this.store = store;
        this.timeout = timeout;
    }

    @Override
    public Uni<Optional<StoredThread>> load(ThreadKey thread) {
        return timed(store.load(thread));
    }

    @Override
    public Uni<ScopedState> loadScope(String scope) {
        return timed(store.loadScope(scope));
    }

    @Override
    public Uni<StoredThread> commit(ThreadCommit commit) {
        return timed(store.commit(commit));
    }

    @Override
    public Uni<Boolean> saveInfo(ThreadKey thread, ThreadInfo expected, ThreadInfo info) {
        return timed(store.saveInfo(thread, expected, info));
    }

    @Override
    public Uni<Boolean> delete(ThreadKey thread) {
        return timed(store.delete(thread));
    }

    @Override
    public Uni<List<ThreadSummary>> list(String owner, int offset, int limit) {
        return timed(store.list(owner, offset, limit));
    }

    @Override
    public Uni<Optional<RunLock>> tryLock(ThreadKey thread, String runId, Duration ttl) {
        return timed(store.tryLock(thread, runId, ttl));
    }

    @Override
    public Uni<Optional<RunLock>> claim(ThreadKey thread) {
        return timed(store.claim(thread));
    }

    @Override
    public Uni<Boolean> renew(RunLock lock, Duration ttl) {
        return timed(store.renew(lock, ttl));
    }

    @Override
    public Uni<Void> unlock(RunLock lock) {
        return timed(store.unlock(lock));
    }

    @Override
    public Uni<Boolean> saveSummary(ThreadKey thread, String previousThrough, ConversationSummary summary) {
        return timed(store.saveSummary(thread, previousThrough, summary));
    }

    @Override
    public Uni<Optional<SummaryLock>> tryLockSummary(ThreadKey thread, Duration ttl) {
        return timed(store.tryLockSummary(thread, ttl));
    }

    @Override
    public Uni<Void> unlockSummary(SummaryLock lock) {
        return timed(store.unlockSummary(lock));
    }

    @Override
    public Uni<Void> ping() {
        return timed(store.ping());
    }

    private <T> Uni<T> timed(Uni<T> call) {
        return StoreCalls.timed(call, timeout);
    }

    /** The wrapped store owns its client. */
    @Override
    public void close() throws Exception {
        if (store instanceof AutoCloseable client) {
            client.close();
        }
    }
}
