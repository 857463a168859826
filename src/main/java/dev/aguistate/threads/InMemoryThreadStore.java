package dev.aguistate.threads;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The default store: one replica, nothing survives a restart. Bounded: when {@code maxThreads} are stored, the
 * least recently used thread makes room. Threads unused for {@code ttl} expire ({@link #evictExpired()} runs
 * periodically; expired threads are also invisible before that). One lock guards everything, which keeps
 * commits atomic and is cheap next to an LLM call.
 */
public final class InMemoryThreadStore implements ThreadStore {

    private record Held(StoredThread thread, Instant expiresAt) {}

    private record Claim(String token, Instant expiresAt) {}

    private final Clock clock;
    private final Duration ttl;
    private final int maxThreads;
    /** In access order, so the first entry is the least recently used. */
    private final LinkedHashMap<String, Held> threads = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<String, ScopedState> scopes = new HashMap<>();
    private final Map<String, Claim> claims = new HashMap<>();

    public InMemoryThreadStore(Clock clock, Duration ttl, int maxThreads) {
        this.clock = clock;
        this.ttl = ttl;
        this.maxThreads = maxThreads;
    }

    @Override
    public Uni<Optional<StoredThread>> load(String threadId) {
        return Uni.createFrom().item(() -> loadNow(threadId));
    }

    private synchronized Optional<StoredThread> loadNow(String threadId) {
        Held held = live(threadId);
        if (held == null) {
            return Optional.empty();
        }
        threads.put(threadId, new Held(held.thread(), clock.instant().plus(ttl)));
        return Optional.of(held.thread());
    }

    @Override
    public Uni<ScopedState> loadScope(String scope) {
        return Uni.createFrom().item(() -> scopeNow(scope));
    }

    private synchronized ScopedState scopeNow(String scope) {
        return scopes.getOrDefault(scope, new ScopedState(scope, JsonNodeFactory.instance.objectNode(), 0));
    }

    @Override
    public Uni<StoredThread> commit(ThreadCommit commit) {
        return Uni.createFrom().item(() -> commitNow(commit));
    }

    private synchronized StoredThread commitNow(ThreadCommit commit) {
        StoredThread next = commit.thread();
        Held current = live(next.threadId());
        long actual = current == null ? 0 : current.thread().version();
        if (actual != commit.expectedVersion()) {
            throw new VersionConflict("thread " + next.threadId(), commit.expectedVersion(), actual);
        }
        for (ThreadCommit.ScopeWrite write : commit.scopes()) {
            long scopeVersion = scopeNow(write.scope()).version();
            if (scopeVersion != write.expectedVersion()) {
                throw new VersionConflict("scope " + write.scope(), write.expectedVersion(), scopeVersion);
            }
        }
        Instant now = clock.instant();
        for (ThreadCommit.ScopeWrite write : commit.scopes()) {
            scopes.put(write.scope(), new ScopedState(write.scope(), write.state().deepCopy(), write.expectedVersion() + 1));
        }
        StoredThread stored = new StoredThread(next.threadId(), next.owner(), next.agent(), next.state().deepCopy(),
                next.messages(), next.meta(), actual + 1, current == null ? now : current.thread().createdAt(), now);
        if (current == null && threads.size() >= maxThreads) {
            threads.remove(threads.keySet().iterator().next());
        }
        threads.put(stored.threadId(), new Held(stored, now.plus(ttl)));
        return stored;
    }

    @Override
    public Uni<Boolean> delete(String threadId) {
        return Uni.createFrom().item(() -> deleteNow(threadId));
    }

    private synchronized boolean deleteNow(String threadId) {
        boolean existed = live(threadId) != null;
        threads.remove(threadId);
        return existed;
    }

    @Override
    public Uni<List<ThreadSummary>> list(String owner, int offset, int limit) {
        return Uni.createFrom().item(() -> listNow(owner, offset, limit));
    }

    private synchronized List<ThreadSummary> listNow(String owner, int offset, int limit) {
        Instant now = clock.instant();
        return threads.values().stream()
                .filter(h -> h.expiresAt().isAfter(now) && h.thread().owner().equals(owner))
                .map(h -> h.thread().summary())
                .sorted(ThreadSummary.NEWEST_FIRST)
                .skip(offset)
                .limit(limit)
                .toList();
    }

    @Override
    public Uni<Optional<RunLock>> tryLock(String threadId, Duration lockTtl) {
        return Uni.createFrom().item(() -> tryLockNow(threadId, lockTtl));
    }

    private synchronized Optional<RunLock> tryLockNow(String threadId, Duration lockTtl) {
        Instant now = clock.instant();
        Claim claim = claims.get(threadId);
        if (claim != null && claim.expiresAt().isAfter(now)) {
            return Optional.empty();
        }
        String token = UUID.randomUUID().toString();
        claims.put(threadId, new Claim(token, now.plus(lockTtl)));
        return Optional.of(new RunLock(threadId, token));
    }

    @Override
    public Uni<Boolean> renew(RunLock lock, Duration lockTtl) {
        return Uni.createFrom().item(() -> renewNow(lock, lockTtl));
    }

    private synchronized boolean renewNow(RunLock lock, Duration lockTtl) {
        Instant now = clock.instant();
        Claim claim = claims.get(lock.threadId());
        if (claim == null || !claim.token().equals(lock.token()) || !claim.expiresAt().isAfter(now)) {
            return false;
        }
        claims.put(lock.threadId(), new Claim(claim.token(), now.plus(lockTtl)));
        return true;
    }

    @Override
    public Uni<Void> unlock(RunLock lock) {
        return Uni.createFrom().item(() -> {
            unlockNow(lock);
            return null;
        });
    }

    private synchronized void unlockNow(RunLock lock) {
        Claim claim = claims.get(lock.threadId());
        if (claim != null && claim.token().equals(lock.token())) {
            claims.remove(lock.threadId());
        }
    }

    /** Drops expired threads and lapsed claims; returns how many threads went. */
    public synchronized int evictExpired() {
        Instant now = clock.instant();
        int before = threads.size();
        threads.values().removeIf(h -> !h.expiresAt().isAfter(now));
        claims.values().removeIf(c -> !c.expiresAt().isAfter(now));
        return before - threads.size();
    }

    private Held live(String threadId) {
        Held held = threads.get(threadId);
        return held != null && held.expiresAt().isAfter(clock.instant()) ? held : null;
    }
}
