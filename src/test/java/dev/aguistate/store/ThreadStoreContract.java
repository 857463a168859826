package dev.aguistate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ToolCall;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ThreadBackend} must do, through its three ports (threads, claims, summaries), which meet on
 * one thread; each implementation's test extends this. Thread ids and owners are
 * fresh per test, so a shared server needs no cleaning between tests.
 */
public abstract class ThreadStoreContract {

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** The size limit ({@code agui.store.max-thread-bytes}) that every store under test is made with. */
    protected static final int MAX_THREAD_BYTES = 64 * 1024;

    protected abstract ThreadBackend store();

    private final String owner = "user-" + UUID.randomUUID();

    @Test
    void anUnknownThreadIsAbsent() {
        assertTrue(store().load(newId()).await().atMost(WAIT).isEmpty());
    }

    @Test
    void aCommittedThreadReadsBackWithItsStateAndMessages() throws Exception {
        StoredThread thread = thread(newId(), json("{\"title\":\"Soup\",\"n\":null,\"list\":[1,{\"a\":[]}]}"), List.of(
                AgUiJson.read("{\"id\":\"u1\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"},"
                        + "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"https://x/y.png\"}}]}", Message.class),
                new Message.Assistant("a1", "Hello", List.of(new ToolCall("c1", "f", "{}"))),
                new Message.Tool("t1", "ok", "c1")));

        StoredThread stored = commit(thread, 0);

        assertEquals(1, stored.version());
        assertEquals(stored.createdAt(), stored.updatedAt());
        StoredThread loaded = store().load(thread.key()).await().atMost(WAIT).orElseThrow();
        assertEquals(thread.state(), loaded.state(), "nulls and nesting survive");
        assertEquals(thread.messages(), loaded.messages(), "all roles and multimodal content survive");
        assertEquals(owner, loaded.owner());
        assertEquals("agent-x", loaded.agent());
        assertEquals(1, loaded.version());
    }

    @Test
    void aCommitFromAStaleVersionFailsAndWritesNothing() {
        ThreadKey id = newId();
        commit(thread(id, json("{\"v\":1}"), List.of()), 0);
        StoredThread second = commit(thread(id, json("{\"v\":2}"), List.of()), 1);
        assertEquals(2, second.version());

        Throwable failure = failureOf(() -> commit(thread(id, json("{\"v\":3}"), List.of()), 1));

        assertInstanceOf(VersionConflict.class, failure);
        StoredThread loaded = store().load(id).await().atMost(WAIT).orElseThrow();
        assertEquals(json("{\"v\":2}"), loaded.state());
        assertEquals(2, loaded.version());
        assertFalse(loaded.createdAt().isAfter(loaded.updatedAt()));
        assertInstanceOf(VersionConflict.class, failureOf(() -> commit(thread(id, json("{}"), List.of()), 0)),
                "creating a thread that exists is a conflict too");
    }

    @Test
    void ofConcurrentCommitsFromOneVersionExactlyOneWins() {
        ThreadKey id = newId();
        commit(thread(id, json("{}"), List.of()), 0);
        List<CompletableFuture<Boolean>> racers = IntStream.range(0, 8).mapToObj(i -> CompletableFuture.supplyAsync(() -> {
            try {
                commit(thread(id, json("{\"winner\":" + i + "}"), List.of()), 1);
                return true;
            } catch (VersionConflict lost) {
                return false;
            }
        })).toList();

        long winners = racers.stream().map(CompletableFuture::join).filter(won -> won).count();

        assertEquals(1, winners);
        assertEquals(2, store().load(id).await().atMost(WAIT).orElseThrow().version());
    }

    @Test
    void scopesStartEmptyAndCommitWithTheThreadAllOrNothing() {
        String scope = ScopedState.userScope(owner);
        ScopedState empty = store().loadScope(scope).await().atMost(WAIT);
        assertEquals(0, empty.version());
        assertEquals(json("{}"), empty.state());

        ThreadKey id = newId();
        store().commit(new ThreadCommit(thread(id, json("{}"), List.of()), 0,
                List.of(new ThreadCommit.ScopeWrite(scope, json("{\"user:lang\":\"fr\"}"), 0)))).await().atMost(WAIT);
        assertEquals(1, store().loadScope(scope).await().atMost(WAIT).version());

        Throwable failure = failureOf(() -> store().commit(new ThreadCommit(thread(id, json("{\"changed\":true}"),
                List.of()), 1, List.of(new ThreadCommit.ScopeWrite(scope, json("{\"user:lang\":\"de\"}"), 0))))
                .await().atMost(WAIT));

        assertInstanceOf(VersionConflict.class, failure);
        assertEquals(json("{}"), store().load(id).await().atMost(WAIT).orElseThrow().state(),
                "a stale scope fails the whole commit");
        assertEquals(json("{\"user:lang\":\"fr\"}"), store().loadScope(scope).await().atMost(WAIT).state());
    }

    @Test
    void aThreadIsStoredUpToTheSizeLimitInUtf8BytesAndALargerOneIsRefusedWritingNothing() {
        ThreadKey id = newId();
        // 'é' takes two bytes in UTF-8: 0.4 of the limit in characters is 0.8 of it in bytes, 0.6 is 1.2
        StoredThread fits = thread(id, text("é".repeat(MAX_THREAD_BYTES * 4 / 10)), List.of());
        commit(fits, 0);

        Throwable tooLarge = failureOf(() -> commit(thread(id, text("é".repeat(MAX_THREAD_BYTES * 6 / 10)),
                List.of()), 1));

        assertInstanceOf(ThreadTooLarge.class, tooLarge);
        StoredThread loaded = store().load(id).await().atMost(WAIT).orElseThrow();
        assertEquals(1, loaded.version());
        assertEquals(fits.state(), loaded.state());
        assertInstanceOf(ThreadTooLarge.class, failureOf(() -> commit(thread(newId(), json("{}"),
                List.of(new Message.User("u1", "x".repeat(MAX_THREAD_BYTES)))), 0)), "messages count too");
    }

    @Test
    void aScopeOverTheSizeLimitFailsTheWholeCommit() {
        String scope = ScopedState.userScope(owner);
        ThreadKey id = newId();

        Throwable tooLarge = failureOf(() -> store().commit(new ThreadCommit(thread(id, json("{}"), List.of()), 0,
                List.of(new ThreadCommit.ScopeWrite(scope, text("x".repeat(MAX_THREAD_BYTES)), 0))))
                .await().atMost(WAIT));

        assertInstanceOf(ThreadTooLarge.class, tooLarge);
        assertTrue(store().load(id).await().atMost(WAIT).isEmpty());
        assertEquals(0, store().loadScope(scope).await().atMost(WAIT).version());
    }

    @Test
    void deleteRemovesTheThread() {
        ThreadKey id = newId();
        commit(thread(id, json("{}"), List.of()), 0);

        assertTrue(store().delete(id).await().atMost(WAIT));
        assertTrue(store().load(id).await().atMost(WAIT).isEmpty());
        assertFalse(store().delete(id).await().atMost(WAIT));
    }

    @Test
    void theServersMetadataOfAThreadReadsBack() {
        Interrupt open = new Interrupt("int-1", "tool_call", "Apply?", "c1",
                json("{\"type\":\"object\",\"properties\":{\"approved\":{\"type\":\"boolean\"}}}"),
                "2026-11-21T10:00:00Z", null);
        Interrupt subagents = new Interrupt("int-2", "tool_call", "Apply?", "p1", null, "2026-11-21T10:00:00Z",
                json("{\"parentToolCallId\":\"c2\"}"), "sub-1"); // a sub-agent's question, as it resumes it
        ThreadMeta meta = new ThreadMeta(Map.of("u1", Instant.parse("2026-11-20T09:30:00.123Z")), List.of(open, subagents),
                List.of("int-0"), null, new RunRecord("run-1", "key-1", Instant.parse("2026-11-20T09:30:00Z"),
                Instant.parse("2026-11-20T09:31:00.5Z"), "cancelled"));
        StoredThread thread = thread(newId(), json("{}"), List.of(new Message.User("u1", "hi")));
        StoredThread withMeta = new StoredThread(thread.threadId(), thread.owner(), thread.agent(), thread.state(),
                thread.messages(), meta, 0, Instant.EPOCH, Instant.EPOCH);

        commit(withMeta, 0);

        assertEquals(meta, store().load(thread.key()).await().atMost(WAIT).orElseThrow().meta());
    }

    @Test
    void listingShowsOnlyTheOwnersThreadsNewestFirstInPages() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ThreadKey id = newId();
            ids.add(0, id.threadId());
            commit(thread(id, json("{}"), List.of()), 0);
        }
        StoredThread someoneElses = new StoredThread(newId().threadId(), "other-" + UUID.randomUUID(), "agent-x", json("{}"),
                List.of(), ThreadMeta.EMPTY, 0, Instant.EPOCH, Instant.EPOCH);
        store().commit(new ThreadCommit(someoneElses, 0, List.of())).await().atMost(WAIT);

        List<ThreadSummary> first = store().list(owner, 0, 3).await().atMost(WAIT);
        List<ThreadSummary> rest = store().list(owner, 3, 3).await().atMost(WAIT);

        List<ThreadSummary> all = new ArrayList<>(first);
        all.addAll(rest);
        assertEquals(3, first.size());
        assertEquals(new HashSet<>(ids), all.stream().map(ThreadSummary::threadId).collect(Collectors.toSet()),
                "exactly the owner's threads, each once across the pages");
        assertEquals(all.stream().sorted(ThreadSummary.NEWEST_FIRST).toList(), all, "newest first (ties by thread id)");
        assertEquals(1, first.get(0).version());
    }

    @Test
    void infoIsSavedBesideTheThreadOnlyOverTheExpectedOneAndARunsCommitKeepsIt() {
        ThreadKey id = newId();
        StoredThread first = commit(thread(id, json("{\"v\":1}"), List.of()), 0);
        ThreadInfo named = new ThreadInfo("Soup ideas", false, json("{\"project\":\"kitchen\",\"n\":1.5}"));

        assertTrue(store().saveInfo(id, ThreadInfo.EMPTY, named).await().atMost(WAIT));
        assertFalse(store().saveInfo(id, ThreadInfo.EMPTY, new ThreadInfo("other", true, null))
                .await().atMost(WAIT), "the info moved on since EMPTY was read");
        StoredThread loaded = store().load(id).await().atMost(WAIT).orElseThrow();
        assertEquals(named, loaded.info());
        assertEquals(1, loaded.version(), "saving info is not a commit");
        assertEquals(first.updatedAt(), loaded.updatedAt());

        StoredThread second = commit(thread(id, json("{\"v\":2}"), List.of()), 1);
        assertEquals(named, second.info(), "a run that read the thread before the rename commits over it");
        assertEquals(named, store().load(id).await().atMost(WAIT).orElseThrow().info());
        ThreadInfo archived = new ThreadInfo("Soup ideas", true, named.metadata());
        assertTrue(store().saveInfo(id, named, archived).await().atMost(WAIT));
        assertEquals(List.of(archived), store().list(owner, 0, 10).await().atMost(WAIT).stream()
                .map(ThreadSummary::info).toList(), "listings carry the info");
        assertTrue(store().saveInfo(id, archived, ThreadInfo.EMPTY).await().atMost(WAIT));
        assertEquals(ThreadInfo.EMPTY, store().load(id).await().atMost(WAIT).orElseThrow().info());

        store().saveInfo(id, ThreadInfo.EMPTY, named).await().atMost(WAIT);
        store().delete(id).await().atMost(WAIT);
        assertFalse(store().saveInfo(id, named, archived).await().atMost(WAIT), "a deleted thread has none");
        assertEquals(ThreadInfo.EMPTY, commit(thread(id, json("{}"), List.of()), 0).info(),
                "a new thread of the same id starts without the old one's info");
        assertEquals(ThreadInfo.EMPTY, store().load(id).await().atMost(WAIT).orElseThrow().info());
    }

    @Test
    void aListingCarriesHowTheLatestRunEnded() {
        ThreadKey id = newId();
        commit(thread(id, json("{}"), List.of()), 0);
        RunRecord ended = new RunRecord("run-1", "key-1", Instant.parse("2026-11-20T09:30:00Z"),
                Instant.parse("2026-11-20T09:31:00.5Z"), "llm_error");
        StoredThread thread = thread(id, json("{}"), List.of());
        commit(new StoredThread(id.threadId(), id.owner(), thread.agent(), thread.state(), thread.messages(),
                new ThreadMeta(Map.of(), List.of(), List.of(), null, ended), 1, Instant.EPOCH, Instant.EPOCH), 1);

        ThreadSummary listed = store().list(owner, 0, 10).await().atMost(WAIT).get(0);

        assertEquals(ended, listed.lastRun());
        assertNull(store().list("nobody-" + UUID.randomUUID(), 0, 1).await().atMost(WAIT).stream().findFirst()
                .map(ThreadSummary::lastRun).orElse(null));
    }

    @Test
    void theSameThreadIdIsAnotherThreadForAnotherOwner() {
        ThreadKey alices = newId();
        ThreadKey bobs = new ThreadKey("other-" + UUID.randomUUID(), alices.threadId());
        commit(thread(alices, json("{\"v\":\"alice\"}"), List.of(new Message.User("u1", "secret"))), 0);

        assertTrue(store().load(bobs).await().atMost(WAIT).isEmpty(), "another owner's id tells nothing");
        assertFalse(store().delete(bobs).await().atMost(WAIT), "nor can it be deleted by them");
        StoredThread bobsThread = commit(thread(bobs, json("{\"v\":\"bob\"}"), List.of()), 0);

        assertEquals(1, bobsThread.version(), "the id is free for them: no conflict with the other owner's");
        assertEquals(json("{\"v\":\"alice\"}"), store().load(alices).await().atMost(WAIT).orElseThrow().state());
        assertEquals(json("{\"v\":\"bob\"}"), store().load(bobs).await().atMost(WAIT).orElseThrow().state());
        assertEquals(List.of(alices.threadId()), store().list(bobs.owner(), 0, 10).await().atMost(WAIT).stream()
                .map(ThreadSummary::threadId).toList());
        assertTrue(store().delete(bobs).await().atMost(WAIT));
        assertEquals(1, store().load(alices).await().atMost(WAIT).orElseThrow().version(), "the owner's stays");
    }

    @Test
    void aClaimAndASummaryLockAreTheOwnersOfTheThreadOnly() {
        ThreadKey alices = newId();
        ThreadKey bobs = new ThreadKey("other-" + UUID.randomUUID(), alices.threadId());
        RunLock alicesRun = store().tryLock(alices, "run-a", Duration.ofMinutes(1)).await().atMost(WAIT).orElseThrow();

        assertTrue(store().claim(bobs).await().atMost(WAIT).isEmpty(), "another owner sees no run on their thread");
        RunLock bobsRun = store().tryLock(bobs, "run-b", Duration.ofMinutes(1)).await().atMost(WAIT).orElseThrow();
        assertEquals(Optional.of(alicesRun), store().claim(alices).await().atMost(WAIT));
        assertEquals(Optional.of(bobsRun), store().claim(bobs).await().atMost(WAIT));
        assertEquals(alices.owner(), store().claim(alices).await().atMost(WAIT).orElseThrow().owner(),
                "a claim names whose run it is");
        store().unlock(new RunLock(bobs, "run-a", alicesRun.token())).await().atMost(WAIT);
        assertEquals(Optional.of(alicesRun), store().claim(alices).await().atMost(WAIT),
                "a token used on another owner's thread releases nothing");

        SummaryLock summarizing = store().tryLockSummary(alices, Duration.ofMinutes(1)).await().atMost(WAIT)
                .orElseThrow();
        assertTrue(store().tryLockSummary(bobs, Duration.ofMinutes(1)).await().atMost(WAIT).isPresent());
        assertTrue(store().tryLockSummary(alices, Duration.ofMinutes(1)).await().atMost(WAIT).isEmpty());
        commit(thread(alices, json("{}"), List.of(new Message.User("u1", "hi"))), 0);
        assertFalse(store().saveSummary(bobs, null, new ConversationSummary("stolen", "u1", 1, Instant.now()))
                .await().atMost(WAIT), "no summary for a thread the owner does not have");
        assertNull(store().load(alices).await().atMost(WAIT).orElseThrow().conversationSummary());
        store().unlockSummary(summarizing).await().atMost(WAIT);
        store().unlock(alicesRun).await().atMost(WAIT);
        store().unlock(bobsRun).await().atMost(WAIT);
    }

    @Test
    void oneRunAtATimeHoldsAThread() {
        ThreadKey id = newId();
        Optional<RunLock> first = store().tryLock(id, "run-1", Duration.ofMinutes(1)).await().atMost(WAIT);
        assertTrue(first.isPresent());
        assertTrue(store().tryLock(id, "run-1", Duration.ofMinutes(1)).await().atMost(WAIT).isEmpty(), "a second run is refused");

        store().unlock(first.get()).await().atMost(WAIT);
        Optional<RunLock> second = store().tryLock(id, "run-1", Duration.ofMinutes(1)).await().atMost(WAIT);
        assertTrue(second.isPresent());
        assertNotEquals(first.get().token(), second.get().token());

        store().unlock(first.get()).await().atMost(WAIT);
        assertTrue(store().tryLock(id, "run-1", Duration.ofMinutes(1)).await().atMost(WAIT).isEmpty(),
                "a stale holder cannot release the claim of the current one");
    }

    @Test
    void everyClaimCarriesAnOrdinalNoOtherClaimHadOnTheSameThreadOrAnotherEvenWhenTheyRace() {
        ThreadKey id = newId();
        List<Long> ordinals = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RunLock held = store().tryLock(id, "same run id", Duration.ofMinutes(1)).await().atMost(WAIT).orElseThrow();
            assertEquals(Optional.of(held), store().claim(id).await().atMost(WAIT), "read back with its ordinal");
            ordinals.add(RunLock.ordinal(held.token()).orElseThrow());
            store().unlock(held).await().atMost(WAIT);
        }
        List<CompletableFuture<Optional<RunLock>>> racing = IntStream.range(0, 20)
                .mapToObj(i -> store().tryLock(newId(), "run", Duration.ofMinutes(1)).subscribeAsCompletionStage())
                .toList();
        racing.forEach(claim -> ordinals.add(RunLock.ordinal(claim.join().orElseThrow().token()).orElseThrow()));

        assertEquals(ordinals.size(), new HashSet<>(ordinals).size(), "no ordinal given twice: " + ordinals);
        assertTrue(ordinals.get(0) < ordinals.get(1) && ordinals.get(1) < ordinals.get(2), "one thread's count up");
    }

    @Test
    void onlyTheHolderRenewsAClaimAndOnlyWhileItHoldsIt() {
        ThreadKey id = newId();
        RunLock held = store().tryLock(id, "run-1", Duration.ofMinutes(1)).await().atMost(WAIT).orElseThrow();

        assertTrue(store().renew(held, Duration.ofMinutes(1)).await().atMost(WAIT));
        assertFalse(store().renew(new RunLock(id, "run-1", "not-the-holder"), Duration.ofMinutes(1)).await().atMost(WAIT));
        store().unlock(held).await().atMost(WAIT);
        assertFalse(store().renew(held, Duration.ofMinutes(1)).await().atMost(WAIT), "a released claim stays released");
        assertTrue(store().tryLock(id, "run-1", Duration.ofMinutes(1)).await().atMost(WAIT).isPresent());
    }

    @Test
    void anyoneCanSeeWhichRunHoldsAThread() {
        ThreadKey id = newId();
        assertTrue(store().claim(id).await().atMost(WAIT).isEmpty(), "no run yet");
        RunLock held = store().tryLock(id, "run 7: the second", Duration.ofMinutes(1)).await().atMost(WAIT)
                .orElseThrow();

        assertEquals(Optional.of(held), store().claim(id).await().atMost(WAIT));
        store().unlock(held).await().atMost(WAIT);
        assertTrue(store().claim(id).await().atMost(WAIT).isEmpty(), "a released claim names no run");
    }

    @Test
    void aSummaryIsSavedBesideTheThreadOnlyOverTheExpectedOneAndOutlivesCommits() {
        ThreadKey id = newId();
        List<Message> messages = List.of(new Message.User("u1", "Plan a trip"), new Message.Assistant("a1", "Where to?", null),
                new Message.User("u2", "Lisbon"));
        commit(thread(id, json("{}"), messages), 0);
        ConversationSummary first = new ConversationSummary("The user plans a trip.", "a1", 2,
                Instant.parse("2026-11-23T10:00:00Z"));

        assertFalse(store().saveSummary(id, "a1", first).await().atMost(WAIT), "there is no summary through a1 yet");
        assertTrue(store().saveSummary(id, null, first).await().atMost(WAIT));
        StoredThread loaded = store().load(id).await().atMost(WAIT).orElseThrow();
        assertEquals(first, loaded.conversationSummary());
        assertEquals(1, loaded.version(), "saving a summary does not move the version a run checks");
        assertEquals(messages, loaded.messages(), "the history stays whole");

        ConversationSummary second = new ConversationSummary("The user plans a trip to Lisbon.", "u2", 3,
                Instant.parse("2026-11-23T10:05:00Z"));
        assertFalse(store().saveSummary(id, null, second).await().atMost(WAIT), "the summary moved on from none");
        commit(thread(id, json("{\"v\":2}"), messages), 1);
        assertEquals(first, store().load(id).await().atMost(WAIT).orElseThrow().conversationSummary(),
                "a commit keeps the summary");
        assertTrue(store().saveSummary(id, "a1", second).await().atMost(WAIT));
        assertEquals(second, store().load(id).await().atMost(WAIT).orElseThrow().conversationSummary());
        assertFalse(store().saveSummary(newId(), null, second).await().atMost(WAIT), "no thread, no summary");
    }

    @Test
    void aSummaryCountsInItsThreadsSize() {
        ThreadKey id = newId();
        List<Message> messages = List.of(new Message.User("u1", "Plan a trip"));
        commit(thread(id, text("x".repeat(MAX_THREAD_BYTES / 2)), messages), 0);
        ConversationSummary tooLarge = summary("s".repeat(MAX_THREAD_BYTES * 6 / 10));
        ConversationSummary fits = summary("s".repeat(MAX_THREAD_BYTES * 3 / 10));

        assertInstanceOf(ThreadTooLarge.class, failureOf(() -> store().saveSummary(id, null, tooLarge)
                .await().atMost(WAIT)), "half the limit and six tenths of it are over it");
        assertNull(store().load(id).await().atMost(WAIT).orElseThrow().conversationSummary(), "nothing was saved");
        assertTrue(store().saveSummary(id, null, fits).await().atMost(WAIT));
        assertInstanceOf(ThreadTooLarge.class, failureOf(() -> commit(thread(id,
                text("x".repeat(MAX_THREAD_BYTES * 8 / 10)), messages), 1)), "a commit counts the summary it keeps");

        StoredThread kept = store().load(id).await().atMost(WAIT).orElseThrow();
        assertEquals(1, kept.version(), "the commit wrote nothing");
        assertEquals(fits, kept.conversationSummary());
        assertEquals(2, commit(thread(id, text("x".repeat(MAX_THREAD_BYTES * 6 / 10)), messages), 1).version(),
                "what fits with the summary is committed");
    }

    private static ConversationSummary summary(String text) {
        return new ConversationSummary(text, "u1", 1, Instant.parse("2026-11-23T10:00:00Z"));
    }

    @Test
    void oneSummarizerAtATimeAndApartFromTheRunClaim() {
        ThreadKey id = newId();
        RunLock run = store().tryLock(id, "run-1", Duration.ofMinutes(1)).await().atMost(WAIT).orElseThrow();
        SummaryLock held = store().tryLockSummary(id, Duration.ofMinutes(1)).await().atMost(WAIT).orElseThrow();

        assertTrue(store().tryLockSummary(id, Duration.ofMinutes(1)).await().atMost(WAIT).isEmpty(),
                "a second summarizer is refused");
        assertEquals(Optional.of(run), store().claim(id).await().atMost(WAIT), "the run keeps its claim");
        store().unlockSummary(new SummaryLock(id, "someone else")).await().atMost(WAIT);
        assertTrue(store().tryLockSummary(id, Duration.ofMinutes(1)).await().atMost(WAIT).isEmpty(),
                "a stale holder cannot release it");
        store().unlockSummary(held).await().atMost(WAIT);
        assertTrue(store().tryLockSummary(id, Duration.ofMinutes(1)).await().atMost(WAIT).isPresent());
        assertEquals(Optional.of(run), store().claim(id).await().atMost(WAIT));
    }

    protected StoredThread thread(ThreadKey id, ObjectNode state, List<Message> messages) {
        return new StoredThread(id.threadId(), id.owner(), "agent-x", state, messages, ThreadMeta.EMPTY, 0,
                Instant.EPOCH, Instant.EPOCH);
    }

    protected StoredThread commit(StoredThread thread, long expectedVersion) {
        return store().commit(new ThreadCommit(thread, expectedVersion, List.of())).await().atMost(WAIT);
    }

    /** A thread of this test's owner that is not stored yet. */
    protected ThreadKey newId() {
        return new ThreadKey(owner, "thread-" + UUID.randomUUID());
    }

    /** A state of one string, {@code {"text": value}}. */
    protected static ObjectNode text(String value) {
        ObjectNode state = AgUiJson.mapper().createObjectNode();
        state.put("text", value);
        return state;
    }

    protected static ObjectNode json(String text) {
        try {
            return (ObjectNode) AgUiJson.mapper().readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private static Throwable failureOf(Runnable action) {
        return assertThrows(RuntimeException.class, action::run);
    }
}
