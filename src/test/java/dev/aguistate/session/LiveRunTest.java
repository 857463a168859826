package dev.aguistate.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.agent.OnDisconnect;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.run.Conversation;
import dev.aguistate.run.RunFixtures;
import dev.aguistate.run.RunOptions;
import dev.aguistate.run.RunStart;
import dev.aguistate.run.ThreadInterrupts;
import dev.aguistate.state.StateLayers;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.RunLock;
import dev.aguistate.store.memory.InMemoryRunEventLog;
import dev.aguistate.testing.OtherThread;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.smallrye.mutiny.operators.multi.processors.UnicastProcessor;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** A run on this replica and the connection that started it, over the real in-memory run log; no Quarkus. */
@Execution(ExecutionMode.CONCURRENT)
class LiveRunTest {

    private final InMemoryRunEventLog log = new InMemoryRunEventLog(Clock.systemUTC(), Duration.ofMinutes(5), 1000,
            1 << 20);

    private static ThreadSession session() {
        RunAgentInput input = RunFixtures.input("{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[]}");
        RunStart start = new RunStart(input, RunOptions.of(input), StateLayers.empty(), List.of(), new Conversation(List.of(), List.of(),
                Conversation.Restatement.NONE, false), Map.of(), ThreadInterrupts.NONE, null, null, null);
        return new ThreadSession(Caller.ANONYMOUS, start,
                new RunLock(Caller.ANONYMOUS.thread("t"), "r", "token-1"), () -> { });
    }

    /**
     * The client leaving while a frame is being handed to it does not wait for the hand-over (a slow socket write):
     * the frame goes out after LiveRun's monitor is released, which the leaving takes. The run goes on, and its log
     * holds every event under the number its frame carried.
     */
    @Test
    void aClientLeavingWhileAFrameIsHandedToItDoesNotWaitForTheHandOver() throws Exception {
        UnicastProcessor<AgUiEvent> events = UnicastProcessor.create();
        CountDownLatch saved = new CountDownLatch(1);
        LiveRun run = new LiveRun(session(), log, OnDisconnect.CONTINUE, all -> saved.countDown());
        AtomicReference<AssertSubscriber<byte[]>> client = new AtomicReference<>();
        List<Boolean> leftMeanwhile = new ArrayList<>();
        client.set(run.attachStarter(new FollowWindow(100, 1 << 20), () -> run.start(events))
                .onItem().invoke(frame -> leftMeanwhile.add(OtherThread.returnsMeanwhile(() -> client.get().cancel())))
                .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE)));
        List<AgUiEvent> sent = List.of(new AgUiEvent.RunStarted("t", "r", null, null),
                AgUiEvent.TextMessageStart.assistant("m"), new AgUiEvent.TextMessageContent("m", "Hi"),
                new AgUiEvent.TextMessageEnd("m"), new AgUiEvent.RunFinished("t", "r", null, RunOutcome.SUCCESS, null));

        sent.forEach(events::onNext);
        events.onComplete();

        assertEquals(List.of(true), leftMeanwhile, "the client left while its one frame was being handed over");
        assertEquals(1, client.get().getItems().size(), "nothing is handed to a client that left");
        assertTrue(saved.await(10, TimeUnit.SECONDS), "the run ended and its log holds all of it");
        List<LoggedEvent> logged = log.read("token-1", 0, 100).await().atMost(Duration.ofSeconds(10));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), logged.stream().map(LoggedEvent::seq).toList());
        assertEquals(sent.stream().map(AgUiJson::write).toList(), logged.stream().map(LoggedEvent::json).toList());
        // a token without an ordinal: the cursor names the run by its id
        assertEquals("id: r:1\ndata: " + AgUiJson.write(sent.get(0)) + "\n\n",
                new String(client.get().getItems().get(0), StandardCharsets.UTF_8));
        assertArrayEquals(client.get().getItems().get(0), logged.get(0).frame(),
                "the in-memory log keeps the bytes of the frame the client was sent, and serves them as a frame");
    }
}
