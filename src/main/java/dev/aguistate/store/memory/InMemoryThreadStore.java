package dev.aguistate.store.memory;

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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The default store: one replica, nothing survives a restart. Threads are held as their JSON
 * ({@link SerializedCommit}), so what they take is known exactly, and each load reads a fresh copy.
 *
 * <p>Bounded twice: by {@code maxBytes}, the JSON of all threads together, and by {@code maxThreads}, which also
 * bounds the few hundred bytes of bookkeeping per thread that the bytes do not count. When either is full, the
 * least recently used threads make room, save those a run holds: dropping one would fail its run's next commit
 * (the thread gone, the version behind), losing the run's work, so a store whose threads are all held goes over
 * its bounds by what the runs in progress hold, which they hold in memory anyway. A thread larger than
 * {@code maxThreadBytes} with its summary, or than the whole budget, is refused with {@link ThreadTooLarge}. Shared scopes are not counted: there is one per user and one for the
 * application, each no larger than a thread. Threads unused for {@code ttl} expire ({@link #evictExpired()} runs
 * periodically; expired threads are also invisible before that). One lock guards everything, which keeps commits
 * atomic and is cheap next to an LLM call; a commit's JSON is written before it takes the lock. A listing reads only
 * its owner's threads, from an index kept newest first, so its time under the lock does not grow with other users'
 * threads.
 */
public final class InMemoryThreadStore implements ThreadBackend {

    /**
     * A stored thread: its JSON, what a listing or a version check reads without parsing it, and its summary of the
     * earlier conversation with the size of its JSON, which counts in the thread's. Its info is in its summary.
     */
    private record Held(String owner, ThreadSummary summary, SerializedCommit json, Instant expiresAt,
                        ConversationSummary conversationSummary, long summaryBytes) {

        long bytes() {
            return json.threadBytes() + summaryBytes;
        }

        StoredThread thread() {
            return new StoredThread(summary.threadId(), owner, summary.agent(),
                    ThreadJson.state(ThreadJson.text(json.state())),
                    ThreadJson.messages(ThreadJson.text(json.messages())),
                    ThreadJson.meta(ThreadJson.text(json.meta())), summary.version(), summary.createdAt(),
                    summary.updatedAt(), conversationSummary, summary.info());
        }

        Held until(Instant expiry) {
            return new Held(owner, summary, json, expiry, conversationSummary, summaryBytes);
        }

        Held summarized(ConversationSummary newSummary, long newSummaryBytes) {
            return new Held(owner, summary, json, expiresAt, newSummary, newSummaryBytes);
        }

        Held described(ThreadInfo info) {
            ThreadSummary s = summary;
            return new Held(owner, new ThreadSummary(s.threadId(), s.agent(), s.version(), s.messageCount(),
                    s.createdAt(), s.updatedAt(), info, s.lastRun()), json, expiresAt, conversationSummary,
                    summaryBytes);
        }
    }

    private record Claim(RunLock lock, Instant expiresAt) {}

    private record SummaryLease(String token, Instant expiresAt) {}

    private final Clock clock;
    private final Duration ttl;
    private final int maxThreads;
    private final long maxBytes;
    private final long maxThreadBytes;
    /** In access order, so the first entry is the least recently used. */
    private final LinkedHashMap<ThreadKey, Held> threads = new LinkedHashMap<>(16, 0.75f, true);
    /** The same entries by owner, newest first: what a listing reads. */
    private final Map<String, TreeMap<ThreadSummary, Held>> byOwner = new HashMap<>();
    private long heldBytes;
    private final Map<String, ScopedState> scopes = new HashMap<>();
    private final Map<ThreadKey, Claim> claims = new HashMap<>();
    /** How many claims this store gave: its claims' ordinals ({@link RunLock#token(long)}); guarded by this. */
    private long claimsGiven;
    private final Map<ThreadKey, SummaryLease> summaryLocks = new HashMap<>();

    public InMemoryThreadStore(Clock clock, Duration ttl, int maxThreads, long maxBytes, long maxThreadBytes) {
        this.clock = clock;
        this.ttl = ttl;
        this.maxThreads = maxThreads;
        this.maxBytes = maxBytes;
        this.maxThreadBytes = Math.min(maxThreadBytes, maxBytes);
    }

    @Override
    public Uni<Optional<StoredThread>> load(ThreadKey thread) {
        return Uni.createFrom().item(() -> loadNow(thread));
    }

    private Optional<StoredThread> loadNow(ThreadKey thread) {
        return touch(thread).map(Held::thread);
    }

    /** The thread's entry with its expiry moved on; parsing it is left to the caller, outside the lock. */
    private synchronized Optional<Held> touch(ThreadKey thread) {
        Held held = live(thread);
        if (held == null) {
            return Optional.empty();
        }
        Held touched = held.until(clock.instant().plus(ttl));
        put(touched);
        return Optional.of(touched);
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
        return Uni.createFrom().item(() -> commitNow(commit, SerializedCommit.of(commit, maxThreadBytes)));
    }

    private synchronized StoredThread commitNow(ThreadCommit commit, SerializedCommit json) {
        StoredThread next = commit.thread();
        Held current = live(next.key());
        long actual = current == null ? 0 : current.summary().version();
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
        long summaryBytes = current == null ? 0 : current.summaryBytes();
        if (json.threadBytes() + summaryBytes > maxThreadBytes) {
            throw new ThreadTooLarge("thread " + next.threadId() + " with its summary", json.threadBytes()
                    + summaryBytes, maxThreadBytes);
        }
        StoredThread stored = next.described(current == null ? ThreadInfo.EMPTY : current.summary().info())
                .committed(actual + 1, current == null ? now : current.summary().createdAt(), now);
        remove(next.key());
        Held held = new Held(stored.owner(), stored.summary(), json.threadOnly(), now.plus(ttl),
                current == null ? null : current.conversationSummary(), summaryBytes);
        makeRoom(held.bytes());
        put(held);
        heldBytes += held.bytes();
        return stored;
    }

    /**
     * Drops the least recently used threads no run holds until one more of {@code bytes} fits both bounds, or
     * none is left to drop.
     */
    private void makeRoom(long bytes) {
        Instant now = clock.instant();
        Iterator<Map.Entry<ThreadKey, Held>> leastRecentlyUsed = threads.entrySet().iterator();
        while (leastRecentlyUsed.hasNext() && (threads.size() >= maxThreads || heldBytes + bytes > maxBytes)) {
            Map.Entry<ThreadKey, Held> next = leastRecentlyUsed.next();
            if (liveClaim(next.getKey(), now) == null) {
                heldBytes -= next.getValue().bytes();
                unindex(next.getValue());
                leastRecentlyUsed.remove();
            }
        }
    }

    /** The thread's claim if a run holds it now; null if none, or if it lapsed. */
    private Claim liveClaim(ThreadKey thread, Instant now) {
        Claim claim = claims.get(thread);
        return claim != null && claim.expiresAt().isAfter(now) ? claim : null;
    }

    private void remove(ThreadKey thread) {
        Held removed = threads.remove(thread);
        if (removed != null) {
            heldBytes -= removed.bytes();
            unindex(removed);
        }
    }

    /** Stores the entry, or its new version (same summary, or after {@link #remove}), in both maps. */
    private void put(Held held) {
        threads.put(new ThreadKey(held.owner(), held.summary().threadId()), held);
        byOwner.computeIfAbsent(held.owner(), owner -> new TreeMap<>(ThreadSummary.NEWEST_FIRST))
                .put(held.summary(), held);
    }

    private void unindex(Held held) {
        TreeMap<ThreadSummary, Held> owned = byOwner.get(held.owner());
        if (owned != null) {
            owned.remove(held.summary());
            if (owned.isEmpty()) {
                byOwner.remove(held.owner());
            }
        }
    }

    @Override
    public Uni<Boolean> saveInfo(ThreadKey thread, ThreadInfo expected, ThreadInfo info) {
        return Uni.createFrom().item(() -> saveInfoNow(thread, expected, info));
    }

    private synchronized boolean saveInfoNow(ThreadKey thread, ThreadInfo expected, ThreadInfo info) {
        Held held = live(thread);
        if (held == null || !held.summary().info().equals(expected)) {
            return false;
        }
        Held described = held.described(info);
        unindex(held);
        put(described);
        return true;
    }

    @Override
    public Uni<Boolean> delete(ThreadKey thread) {
        return Uni.createFrom().item(() -> deleteNow(thread));
    }

    private synchronized boolean deleteNow(ThreadKey thread) {
        boolean existed = live(thread) != null;
        remove(thread);
        return existed;
    }

    @Override
    public Uni<List<ThreadSummary>> list(String owner, int offset, int limit) {
        return Uni.createFrom().item(() -> listNow(owner, offset, limit));
    }

    private synchronized List<ThreadSummary> listNow(String owner, int offset, int limit) {
        Instant now = clock.instant();
        TreeMap<ThreadSummary, Held> owned = byOwner.get(owner);
        if (owned == null) {
            return List.of();
        }
        return owned.values().stream()
                .filter(h -> h.expiresAt().isAfter(now))
                .map(Held::summary)
                .skip(offset)
                .limit(limit)
                .toList();
    }

    @Override
    public Uni<Optional<RunLock>> tryLock(ThreadKey thread, String runId, Duration lockTtl) {
        return Uni.createFrom().item(() -> tryLockNow(thread, runId, lockTtl));
    }

    private synchronized Optional<RunLock> tryLockNow(ThreadKey thread, String runId, Duration lockTtl) {
        Instant now = clock.instant();
        if (liveClaim(thread, now) != null) {
            return Optional.empty();
        }
        RunLock lock = new RunLock(thread, runId, RunLock.token(++claimsGiven));
        claims.put(thread, new Claim(lock, now.plus(lockTtl)));
        return Optional.of(lock);
    }

    @Override
    public Uni<Optional<RunLock>> claim(ThreadKey thread) {
        return Uni.createFrom().item(() -> claimNow(thread));
    }

    private synchronized Optional<RunLock> claimNow(ThreadKey thread) {
        return Optional.ofNullable(liveClaim(thread, clock.instant())).map(Claim::lock);
    }

    @Override
    public Uni<Boolean> renew(RunLock lock, Duration lockTtl) {
        return Uni.createFrom().item(() -> renewNow(lock, lockTtl));
    }

    private synchronized boolean renewNow(RunLock lock, Duration lockTtl) {
        Instant now = clock.instant();
        Claim claim = liveClaim(lock.thread(), now);
        if (claim == null || !claim.lock().token().equals(lock.token())) {
            return false;
        }
        claims.put(lock.thread(), new Claim(claim.lock(), now.plus(lockTtl)));
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
        Claim claim = claims.get(lock.thread());
        if (claim != null && claim.lock().token().equals(lock.token())) {
            claims.remove(lock.thread());
        }
    }

    @Override
    public Uni<Boolean> saveSummary(ThreadKey thread, String previousThrough, ConversationSummary summary) {
        return Uni.createFrom().item(() -> saveSummaryNow(thread, previousThrough, summary,
                ThreadJson.summaryBytes(summary)));
    }

    private synchronized boolean saveSummaryNow(ThreadKey thread, String previousThrough, ConversationSummary summary,
                                                long summaryBytes) {
        Held held = live(thread);
        ConversationSummary current = held == null ? null : held.conversationSummary();
        if (held == null || !Objects.equals(current == null ? null : current.throughMessageId(), previousThrough)) {
            return false;
        }
        long threadBytes = held.json().threadBytes() + summaryBytes;
        if (threadBytes > maxThreadBytes) {
            throw new ThreadTooLarge("thread " + thread.threadId() + " with its summary", threadBytes,
                    maxThreadBytes);
        }
        heldBytes += summaryBytes - held.summaryBytes();
        put(held.summarized(summary, summaryBytes));
        return true;
    }

    @Override
    public Uni<Optional<SummaryLock>> tryLockSummary(ThreadKey thread, Duration lockTtl) {
        return Uni.createFrom().item(() -> tryLockSummaryNow(thread, lockTtl));
    }

    private synchronized Optional<SummaryLock> tryLockSummaryNow(ThreadKey thread, Duration lockTtl) {
        Instant now = clock.instant();
        SummaryLease held = summaryLocks.get(thread);
        if (held != null && held.expiresAt().isAfter(now)) {
            return Optional.empty();
        }
        SummaryLock lock = new SummaryLock(thread, UUID.randomUUID().toString());
        summaryLocks.put(thread, new SummaryLease(lock.token(), now.plus(lockTtl)));
        return Optional.of(lock);
    }

    @Override
    public Uni<Void> unlockSummary(SummaryLock lock) {
        return Uni.createFrom().item(() -> {
            unlockSummaryNow(lock);
            return null;
        });
    }

    private synchronized void unlockSummaryNow(SummaryLock lock) {
        SummaryLease held = summaryLocks.get(lock.thread());
        if (held != null && held.token().equals(lock.token())) {
            summaryLocks.remove(lock.thread());
        }
    }

    /** Memory always answers. */
    @Override
    public Uni<Void> ping() {
        return Uni.createFrom().voidItem();
    }

    /** Drops expired threads and lapsed claims; returns how many threads went. */
    public synchronized int evictExpired() {
        Instant now = clock.instant();
        int before = threads.size();
        threads.values().removeIf(h -> {
            boolean expired = !h.expiresAt().isAfter(now);
            if (expired) {
                heldBytes -= h.bytes();
                unindex(h);
            }
            return expired;
        });
        claims.values().removeIf(c -> !c.expiresAt().isAfter(now));
        summaryLocks.values().removeIf(c -> !c.expiresAt().isAfter(now));
        return before - threads.size();
    }

    private Held live(ThreadKey thread) {
        Held held = threads.get(thread);
        return held != null && held.expiresAt().isAfter(clock.instant()) ? held : null;
    }
}
