package dev.aguistate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInputReader;
import dev.aguistate.run.RunOptions;
import dev.aguistate.store.ScopedState;
import dev.aguistate.store.StoreConfigs;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadInfo;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.store.ThreadMeta;
import dev.aguistate.store.ThreadStore;
import dev.aguistate.store.ThreadSummary;
import dev.aguistate.store.memory.InMemoryThreadStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The thread a run starts from is the thread as it is once the run holds its claim. Opening a session loads the
 * thread (to check the caller may claim it), then claims it; a run that ends in between — a client stopped a run
 * and at once sent its next message, and the stopped run's last commit and release land between the two — changes
 * the thread. Seen in CI: the next run started from the first load and failed its first commit with thread_conflict.
 * The real memory store, with that interleaving forced at the load.
 */
@Execution(ExecutionMode.CONCURRENT)
class ThreadClaimTest {

    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final String THREAD = "thread-claimed";
    private static final AgentDefinition CHAT = AgentDefinition.builder("chat").description("chat")
            .instructions("Chat.").build();

    private final InMemoryThreadStore memory = new InMemoryThreadStore(Clock.systemUTC(), Duration.ofDays(1), 100,
            1 << 24, 1 << 20);
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void closeVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aRunStartsFromTheThreadAsTheRunThatEndedBeforeItsClaimLeftIt() {
        StoredThread first = memory.commit(new ThreadCommit(thread(0, List.of(
                new Message.User("u1", "Tell me a long story"))), 0, List.of())).await().atMost(WAIT);
        // What the stopped run left: its question answered as far as it got, committed after the next request's
        // first load and before its claim.
        Runnable stoppedRunEnds = () -> memory.commit(new ThreadCommit(thread(first.version(), List.of(
                new Message.User("u1", "Tell me a long story"),
                new Message.Assistant("a1", "Once upon a time", null))), first.version(), List.of()))
                .await().atMost(WAIT);
        ThreadSessions sessions = new ThreadSessions(new EndsARunAfterTheFirstLoad(memory, stoppedRunEnds),
                memory, StoreConfigs.of(Map.of()), null, null, vertx);

        ThreadSession session = sessions.open(Caller.ANONYMOUS, CHAT, RunAgentInputReader.read(("{\"threadId\":\""
                + THREAD + "\",\"runId\":\"r2\",\"messages\":[{\"id\":\"u2\",\"role\":\"user\",\"content\":\"Hello\"}]}")
                .getBytes(StandardCharsets.UTF_8)), RunOptions.DEFAULTS).await().atMost(WAIT);
        try {
            assertEquals(List.of("u1", "a1"), session.start().storedHistory().stream().map(Message::id).toList(),
                    "the run starts from the thread the stopped run left, not from the load before the claim");
        } finally {
            sessions.release(session).await().atMost(WAIT);
        }
    }

    private static StoredThread thread(long version, List<Message> messages) {
        return new StoredThread(THREAD, Caller.ANONYMOUS.owner(), "chat", JsonNodeFactory.instance.objectNode(),
                messages, ThreadMeta.EMPTY, version, Instant.EPOCH, Instant.EPOCH);
    }

    /** The real store; after the first load of a thread answers, another run ends (its commit lands). */
    private static final class EndsARunAfterTheFirstLoad implements ThreadStore {

        private final ThreadStore store;
        private Runnable afterFirstLoad;

        EndsARunAfterTheFirstLoad(ThreadStore store, Runnable afterFirstLoad) {
            this.store = store;
            this.afterFirstLoad = afterFirstLoad;
        }

        @Override
        public Uni<Optional<StoredThread>> load(ThreadKey thread) {
            return store.load(thread).invoke(loaded -> {
                Runnable ending = afterFirstLoad;
                afterFirstLoad = null;
                if (ending != null) {
                    ending.run();
                }
            });
        }

        @Override
        public Uni<ScopedState> loadScope(String scope) {
            return store.loadScope(scope);
        }

        @Override
        public Uni<StoredThread> commit(ThreadCommit commit) {
            return store.commit(commit);
        }

        @Override
        public Uni<Boolean> saveInfo(ThreadKey thread, ThreadInfo expected, ThreadInfo info) {
            return store.saveInfo(thread, expected, info);
        }

        @Override
        public Uni<Boolean> delete(ThreadKey thread) {
            return store.delete(thread);
        }

        @Override
        public Uni<List<ThreadSummary>> list(String owner, int offset, int limit) {
            return store.list(owner, offset, limit);
        }

        @Override
        public Uni<Void> ping() {
            return store.ping();
        }
    }
}
