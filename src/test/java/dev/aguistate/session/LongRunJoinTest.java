package dev.aguistate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunEventLog;
import dev.aguistate.store.ThreadLocks;
import dev.aguistate.testing.BlockedEventLoopGuard;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.LongWaitsProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Joining a live run whose log is long and costly to project never holds an event loop: the log is read a page at a
 * time, and projected on a worker thread. The profile lowers Vert.x's limit for an event-loop task to 1 s, so that
 * {@link BlockedEventLoopGuard} fails the test for any task longer than that and the checker's interval (1 s)
 * together, which projecting this run's log in one task takes: each of its state deltas is applied to a state of
 * {@link #NOTES} notes.
 */
@QuarkusTest
@TestProfile(LongWaitsProfile.class)
class LongRunJoinTest extends StubbedLlmTestBase {

    private static final String AGENT = "/agui/predictive-notebook";
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Few enough for the run's own start to take a fraction of the limit; what costs is notes × deltas. */
    private static final int NOTES = 2_000;
    /** State deltas in the run's log beyond what its model sent so far. */
    private static final int DELTAS = 60_000;

    @Inject
    ThreadLocks locks;
    @Inject
    RunEventLog log;

    @Test
    void aJoinToARunWithALongLogGetsItsWholePreludeWithoutBlockingAnEventLoop() {
        stub.enqueue(StubResponse.stream().text("Hello").stallAfter(2).build()); // the role chunk, then "Hello"
        RunRequests run = RunRequests.fresh().user("keep counting");
        ArrayNode notes = run.body().putObject("state").putArray("notes");
        for (int n = 0; n < NOTES; n++) {
            notes.add("note " + n + ": a line of the notebook, long enough to give the state some weight");
        }
        try (SseClient.LiveStream starter = client.open(AGENT, run.json())) {
            starter.await("TEXT_MESSAGE_CONTENT");
            List<String> ids = starter.ids();
            long seq = Cursor.parse(ids.get(ids.size() - 1)).orElseThrow().seq();
            logCounting(run.threadId(), seq);

            List<JsonNode> prelude;
            try (SseClient.LiveStream joined = client.open(AGENT + "/connect",
                    RunRequests.of(run.threadId(), "join").json())) {
                joined.await("STATE_SNAPSHOT"); // the prelude's last event
                prelude = joined.events();
            }

            JsonNode state = prelude.get(prelude.size() - 1).get("snapshot");
            assertEquals(DELTAS - 1, state.path("counter").asInt(), "every delta of the log, in order");
            assertEquals(NOTES, state.path("notes").size());
            assertTrue(prelude.stream().anyMatch(event -> "Hello".equals(event.path("delta").asText())),
                    "the open message with its text so far: " + prelude);
            client.post(AGENT + "/stop/" + run.threadId(), "{}", "Content-Type", "application/json");
        }
    }

    /**
     * Logs {@link #DELTAS} state deltas after entry {@code seq}, each setting {@code counter} to the next number, as
     * a run whose tools counted would have had them logged.
     */
    private void logCounting(String threadId, long seq) {
        String key = locks.claim(Caller.ANONYMOUS.thread(threadId)).await().atMost(WAIT).orElseThrow().token();
        List<LoggedEvent> deltas = new ArrayList<>();
        for (int n = 0; n < DELTAS; n++) {
            deltas.add(new LoggedEvent(seq + 1 + n,
                    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/counter\",\"value\":" + n + "}]}"));
        }
        log.append(key, deltas).await().atMost(WAIT);
    }
}
