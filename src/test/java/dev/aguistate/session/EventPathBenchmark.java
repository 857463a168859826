package dev.aguistate.session;

import dev.aguistate.agent.OnDisconnect;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.run.Conversation;
import dev.aguistate.run.RunFixtures;
import dev.aguistate.run.RunOptions;
import dev.aguistate.run.RunStart;
import dev.aguistate.run.ThreadInterrupts;
import dev.aguistate.state.StateLayers;
import dev.aguistate.store.RunLock;
import dev.aguistate.store.memory.InMemoryRunEventLog;
import io.smallrye.mutiny.Multi;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What a short answer's events cost on their way from the run to its connection and its log ({@link LiveRun}): a
 * run of 44 events (RUN_STARTED, a text message of 40 deltas, RUN_FINISHED) numbered, serialized, framed with their
 * cursor, handed to the starting connection and appended to the in-memory run log, one operation per run. With
 * JMH's {@code -prof gc}, {@code gc.alloc.rate.norm} ÷ 44 is the bytes allocated per event (this path's share of
 * what bench/alloc.sh measures through the whole server). Command and results: docs/benchmarks.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EventPathBenchmark {

    /** Events per run: RUN_STARTED, TEXT_MESSAGE_START, 40 deltas, TEXT_MESSAGE_END, RUN_FINISHED. */
    public static final int EVENTS = 44;

    private InMemoryRunEventLog log;
    private RunStart start;
    private long claims;
    private List<AgUiEvent> events;

    @Setup
    public void setUp() {
        log = new InMemoryRunEventLog(Clock.systemUTC(), Duration.ofMinutes(5), 1000, 64L << 20);
        RunAgentInput input = RunFixtures.input("{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[]}");
        start = new RunStart(input, RunOptions.of(input), StateLayers.empty(), List.of(),
                new Conversation(List.of(), List.of(), Conversation.Restatement.NONE, false), Map.of(),
                ThreadInterrupts.NONE, null, null, null);
        String message = "0b7e2d4c-8f1a-4a51-9e0b-3c2d1f0a9b8c";
        events = new ArrayList<>();
        events.add(new AgUiEvent.RunStarted("t", "r", null, null));
        events.add(AgUiEvent.TextMessageStart.assistant(message));
        for (int word = 0; word < EVENTS - 4; word++) {
            events.add(new AgUiEvent.TextMessageContent(message, (word == 0 ? "" : " ") + "word" + word % 10));
        }
        events.add(new AgUiEvent.TextMessageEnd(message));
        events.add(new AgUiEvent.RunFinished("t", "r", null, RunOutcome.SUCCESS, null));
    }

    @Benchmark
    public void aShortAnswer(Blackhole frames) {
        // a claim of its own (a log's key), with an ordinal as every claim's now: frames carry the compact cursor
        RunLock claim = new RunLock(Caller.ANONYMOUS.thread("t"), "r", RunLock.token(++claims));
        AtomicBoolean saved = new AtomicBoolean();
        LiveRun run = new LiveRun(new ThreadSession(Caller.ANONYMOUS, start, claim, () -> { }), log,
                OnDisconnect.CONTINUE, all -> saved.set(true));
        run.attachStarter(new FollowWindow(1000, 1 << 20), () -> run.start(Multi.createFrom().iterable(events)))
                .subscribe().with(frames::consume);
        if (!saved.get()) { // the in-memory log appends at once
            throw new IllegalStateException("the run's log was not saved");
        }
        log.expireAfter(claim.token(), Duration.ZERO); // as a run that ended, but kept for no time
        log.evictExpired();
    }
}
