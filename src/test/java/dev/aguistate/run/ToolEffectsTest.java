package dev.aguistate.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Message;
import dev.aguistate.state.State;
import dev.aguistate.testing.ClientStateReplay;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolContext;
import dev.aguistate.tools.ToolFailure;
import dev.aguistate.tools.ToolOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class ToolEffectsTest {

    private final JsonNode initial = AgUiJson.tree("{\"document\":\"draft\",\"notes\":[]}");
    private final RunState state = new RunState(new State(RunFixtures.DOCUMENT, initial));
    private final ClientMirror client = new ClientMirror(initial);
    private final ToolEffects effects = new ToolEffects(state, client, Duration.ZERO);

    @Test
    void aToolReadsItsInputsFromState() {
        BackendTool reader = BackendTool.builder("read").stringParameter("text", "from state", true)
                .inputFromState("document", "text").handler((args, context) -> "");

        assertEquals(AgUiJson.tree("\"draft\""), effects.inputsFor(reader).get("text"));
    }

    @Test
    void allOfACallsOutputsAreMergedOrNone() {
        BackendTool both = BackendTool.builder("both")
                .outputToState("notes", "notes").outputToState("document", "document")
                .handler((args, context) -> "");
        ServerToolCall call = new ServerToolCall("c1", "both", "{}", both);
        JsonNode onlyNotes = AgUiJson.tree("{\"notes\":[\"n\"]}");

        ToolOutcome outcome = effects.mergeOutputs(call, new ToolOutcome.Success("", onlyNotes));

        ToolOutcome.Failure failure = assertInstanceOf(ToolOutcome.Failure.class, outcome);
        assertEquals(ToolFailure.Kind.STATE_MERGE_FAILED, failure.failure().kind());
        assertEquals(initial, state.current().toJson());

        JsonNode complete = AgUiJson.tree("{\"notes\":[\"n\"],\"document\":\"final\"}");
        ToolOutcome success = new ToolOutcome.Success("", complete);
        assertSame(success, effects.mergeOutputs(call, success));
        assertEquals(AgUiJson.tree("{\"document\":\"final\",\"notes\":[\"n\"]}"), state.current().toJson());
    }

    @Test
    void liveWritesFromParallelToolsReachTheClientAsDeltasInAnOrderThatApplies() throws Exception {
        List<AgUiEvent> emitted = Collections.synchronizedList(new ArrayList<>());
        ToolContext context = effects.context(emitted::add);
        int threads = 8;
        int writes = 50;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> tools = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int tool = t;
                tools.add(pool.submit(() -> {
                    for (int w = 0; w < writes; w++) {
                        context.updateState("notes", JsonNodeFactory.instance.arrayNode().add(tool + "." + w));
                    }
                }));
            }
            for (Future<?> tool : tools) {
                tool.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        JsonNode held = ClientStateReplay.ofEveryClient(initial, RunFixtures.json(emitted)).held();
        assertEquals(state.clientView(), held);
        assertEquals(threads * writes, held.get("notes").size());
        assertEquals(held, client.holds());
    }

    /**
     * A delta is emitted after the lock is released: a second tool's write completes while the first tool's delta
     * is still being emitted. Were the emission under the lock, the second write would wait for it forever.
     */
    @Test
    void deltasAreEmittedOutsideTheLock() throws Exception {
        CountDownLatch secondWriteDone = new CountDownLatch(1);
        List<Boolean> emissionSawTheSecondWrite = new ArrayList<>();
        List<AgUiEvent> emitted = Collections.synchronizedList(new ArrayList<>());
        ToolContext[] context = new ToolContext[1];
        context[0] = effects.context(event -> {
            if (emitted.isEmpty()) {
                Thread second = new Thread(() -> {
                    context[0].updateState("document", AgUiJson.tree("\"second\""));
                    secondWriteDone.countDown();
                });
                second.start();
                try {
                    emissionSawTheSecondWrite.add(secondWriteDone.await(10, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            emitted.add(event);
        });

        context[0].updateState("document", AgUiJson.tree("\"first\""));

        assertEquals(List.of(true), emissionSawTheSecondWrite);
        assertTrue(secondWriteDone.await(10, TimeUnit.SECONDS));
        assertEquals(2, emitted.size());
        assertEquals("second", ClientStateReplay.of(initial, RunFixtures.json(emitted)).held().get("document").asText());
    }

    /**
     * A change of an activity that comes within the interval is sent by the timer, once, with the latest content;
     * one that still waits when the tools are done goes before the results, which go before what follows them.
     */
    @Test
    void pacedActivityChangesAreSentByTheTimerAndWhatWaitsBeforeTheResults() throws Exception {
        ToolEffects paced = new ToolEffects(state, client, Duration.ofMillis(200));
        List<AgUiEvent> emitted = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch firstDelta = new CountDownLatch(1);
        ToolEffects.RoundEffects round = paced.context(event -> {
            emitted.add(event);
            if (event instanceof AgUiEvent.ActivityDelta) {
                firstDelta.countDown();
            }
        });

        round.activity("c1", "count", AgUiJson.tree("{\"n\":0}"));
        round.activity("c1", "count", AgUiJson.tree("{\"n\":1}"));
        round.activity("c1", "count", AgUiJson.tree("{\"n\":2}"));
        assertTrue(firstDelta.await(10, TimeUnit.SECONDS), "the timer sent the change that waited");
        assertEquals(2, emitted.size(), emitted.toString());
        assertEquals("[{\"op\":\"replace\",\"path\":\"/n\",\"value\":2}]",
                AgUiJson.write(((AgUiEvent.ActivityDelta) emitted.get(1)).patch()));

        round.activity("c1", "count", AgUiJson.tree("{\"n\":3}"));
        List<Message> kept = round.settle();
        AgUiEvent result = new AgUiEvent.ToolCallResult("m1", "c1", "done");
        CountDownLatch completed = new CountDownLatch(1);
        round.then(List.of(result), completed::countDown);
        round.activity("c1", "count", AgUiJson.tree("{\"n\":4}"));

        assertTrue(completed.await(10, TimeUnit.SECONDS));
        assertEquals(4, emitted.size(), "the waiting change, then the result; nothing after: " + emitted);
        assertEquals("[{\"op\":\"replace\",\"path\":\"/n\",\"value\":3}]",
                AgUiJson.write(((AgUiEvent.ActivityDelta) emitted.get(2)).patch()));
        assertSame(result, emitted.get(3));
        assertEquals(AgUiJson.tree("{\"n\":3}"), ((Message.Activity) kept.get(0)).content());
    }
}
