package dev.aguistate.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.RunFailure;
import dev.aguistate.agent.RunJournal;
import dev.aguistate.agent.RunStart;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.threads.RunLock;
import dev.aguistate.threads.StoreConfig;
import dev.aguistate.threads.StoredThread;
import dev.aguistate.threads.ThreadCommit;
import dev.aguistate.threads.ThreadStore;
import dev.aguistate.threads.VersionConflict;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Ties a run to its stored thread: the owner check (another user's thread is "not found"), one run per thread
 * across replicas (409), what the run starts from, and the commit of its outcome with a version check.
 */
@ApplicationScoped
public class ThreadRuns {

    /** A run that may go ahead, holding its thread until {@link #release} is called. */
    public record Claimed(RunStart start, RunLock lock) {}

    /** A run refused before its stream opened. */
    static final class Refused extends RuntimeException {
        final ErrorBody error;

        Refused(ErrorBody error) {
            super(error.message(), null, false, false);
            this.error = error;
        }
    }

    private static final Duration LOCK_RETRY = Duration.ofMillis(50);

    private final ThreadStore store;
    private final StoreConfig config;

    ThreadRuns(ThreadStore store, StoreConfig config) {
        this.store = store;
        this.config = config;
    }

    /** Fails with {@link Refused} when the thread is another user's or already running. */
    Uni<Claimed> claim(String user, AgentDefinition agent, RunAgentInput input) {
        return store.load(input.threadId()).onItem().transformToUni(stored -> {
            if (stored.isPresent() && !stored.get().owner().equals(user)) {
                throw notFound(input.threadId());
            }
            long deadline = System.nanoTime() + config.lockWait().toNanos();
            return lock(input.threadId(), deadline).onItem().transform(lock -> new Claimed(
                    start(user, agent, input, stored), lock));
        });
    }

    /** Claims the thread, trying again until {@code deadline} (nanoTime) while a run that may be ending holds it. */
    private Uni<RunLock> lock(String threadId, long deadline) {
        return store.tryLock(threadId, config.lockTtl()).onItem().transformToUni(lock -> {
            if (lock.isPresent()) {
                return Uni.createFrom().item(lock.get());
            }
            if (System.nanoTime() >= deadline) {
                return Uni.createFrom().failure(busy(threadId));
            }
            return Uni.createFrom().voidItem().onItem().delayIt().by(LOCK_RETRY)
                    .onItem().transformToUni(retry -> lock(threadId, deadline));
        });
    }

    private static Refused busy(String threadId) {
        return new Refused(new ErrorBody(409, "thread_busy", "thread '" + threadId
                + "' has a run in progress; retry when it has finished"));
    }

    Uni<Void> release(Claimed claimed) {
        return store.unlock(claimed.lock());
    }

    static Refused notFound(String threadId) {
        return new Refused(new ErrorBody(404, "thread_not_found", "there is no thread '" + threadId + "'"));
    }

    private RunStart start(String user, AgentDefinition agent, RunAgentInput input, Optional<StoredThread> stored) {
        long version = stored.map(StoredThread::version).orElse(0L);
        RunJournal journal = (state, messages) -> store.commit(new ThreadCommit(new StoredThread(input.threadId(),
                        user, agent.name(), asObject(state), messages, version, Instant.EPOCH, Instant.EPOCH),
                        version, List.of()))
                .onFailure(VersionConflict.class).transform(conflict -> new RunFailure("thread_conflict",
                        "The thread changed while this run was in progress; nothing of this run was kept."))
                .replaceWithVoid();
        return new RunStart(input, stored.map(StoredThread::state).orElse(null),
                stored.map(StoredThread::messages).orElse(List.of()), journal);
    }

    private static ObjectNode asObject(JsonNode state) {
        return state instanceof ObjectNode object ? object : JsonNodeFactory.instance.objectNode();
    }
}
