package dev.aguistate.run;

import dev.aguistate.run.tracing.RunTracing;
import dev.aguistate.run.request.ChatRequests;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Context;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.llm.FinishReason;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.state.StateLayers;
import dev.aguistate.testing.ClientStateReplay;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.OtherThread;
import dev.aguistate.tools.BackendTool;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.smallrye.mutiny.operators.multi.processors.UnicastProcessor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Whole runs through the run loop, with the LLM stubbed at its port: no Quarkus, no network. */
@Execution(ExecutionMode.CONCURRENT)
class AgentRunnerTest {

    private final StubStreamingModel model = new StubStreamingModel();
    private final RunFixtures.RecordingJournal journal = new RunFixtures.RecordingJournal();
    private final AgentRunner runner = new AgentRunner(model, RunFixtures.settings(Duration.ZERO, 3),
            new RunMetrics(new SimpleMeterRegistry()), new RunTracing(OpenTelemetry.noop().getTracer("test"), false));

    private List<AgUiEvent> run(AgentDefinition agent, RunStart start) {
        List<AgUiEvent> events = runner.run(agent, start, new StopSwitch(), new RunInbox(), Context.root()).collect().asList().await().atMost(Duration.ofSeconds(10));
        EventStreamVerifier.verify(RunFixtures.json(events), start.input().threadId(), start.input().runId());
        return events;
    }

    private static ModelEvent[] callsWriteDocument(String id, String text) {
        String arguments = "{\"document\":\"" + text + "\"}";
        return new ModelEvent[] {
                new ModelEvent.ToolCallDelta(0, id, "write_document", arguments.substring(0, 14)),
                new ModelEvent.ToolCallDelta(0, null, null, arguments.substring(14)),
                new ModelEvent.ToolCallCompleted(0, id, "write_document", arguments),
                new ModelEvent.Completed(null, FinishReason.STOP)};
    }

    private static ModelEvent[] says(String text) {
        return new ModelEvent[] {new ModelEvent.TextDelta(text), new ModelEvent.Completed(null, FinishReason.STOP)};
    }

    private static AgUiEvent last(List<AgUiEvent> events) {
        return events.get(events.size() - 1);
    }

    @Test
    void aTextAnswerIsStreamedCommittedThenReportedFinished() {
        model.answer(says("Hello!"));
        RunAgentInput input = RunFixtures.userAsks("Hi", "null");

        List<AgUiEvent> events = run(AgentDefinition.builder("chat").build(), RunFixtures.newThread(input, journal));

        assertEquals(RunOutcome.SUCCESS, ((AgUiEvent.RunFinished) last(events)).outcome());
        assertEquals(1, journal.commits.size());
        List<Message> committed = journal.commits.get(0).messages();
        assertEquals("u1", committed.get(0).id());
        assertEquals("Hello!", ((Message.Assistant) committed.get(1)).content());
    }

    @Test
    void aStateToolRoundPredictsRunsTheToolSnapshotsAndLetsTheModelSumUp() {
        model.answer(callsWriteDocument("c1", "A poem")).answer(says("Done."));
        JsonNode clientState = AgUiJson.tree("{\"document\":\"\",\"notes\":[]}");
        RunAgentInput input = RunFixtures.userAsks("Write a poem", clientState.toString());

        List<AgUiEvent> events = run(RunFixtures.writer().build(), RunFixtures.newThread(input, journal));

        List<String> types = RunFixtures.types(events);
        assertTrue(types.indexOf("STATE_DELTA") < types.indexOf("TOOL_CALL_END"), types.toString());
        assertEquals(2, types.stream().filter("STATE_SNAPSHOT"::equals).count(), types.toString());
        assertEquals(types.indexOf("STATE_DELTA") - 1, types.indexOf("STATE_SNAPSHOT"),
                "what the deltas apply to, for a client that plays them onto an empty state: " + types);
        assertTrue(types.indexOf("TOOL_CALL_RESULT") < types.lastIndexOf("STATE_SNAPSHOT"), types.toString());
        JsonNode held = ClientStateReplay.ofEveryClient(clientState, RunFixtures.json(events)).held();
        assertEquals("A poem", held.get("document").asText());
        assertEquals(held, journal.commits.get(0).state());
        assertEquals(2, model.requests.size(), "the model is called again with the tool's result");
        assertTrue(model.requests.get(1).messages().stream()
                .anyMatch(m -> m.type().name().equals("TOOL_EXECUTION_RESULT")));
    }

    /**
     * Also on a page that offers {@code confirm_changes} (CopilotKit offers its actions to every agent): nothing asks
     * for confirmation, so the run adds nothing after the call.
     */
    @ParameterizedTest(name = "the page offers confirm_changes: {0}")
    @ValueSource(booleans = {false, true})
    void aFrontendToolCallEndsTheRunForTheClientToAnswer(boolean pageOffersConfirmChanges) {
        model.answer(new ModelEvent.ToolCallCompleted(0, "c1", "change_background", "{\"color\":\"blue\"}"),
                new ModelEvent.Completed(null, FinishReason.STOP));
        RunAgentInput input = RunFixtures.input("""
                {"threadId":"t","runId":"r","messages":[{"id":"u1","role":"user","content":"Blue please"}],
                 "tools":[{"name":"change_background","description":"client tool"}%s]}"""
                .formatted(pageOffersConfirmChanges ? ",{\"name\":\"confirm_changes\",\"description\":\"asks\"}" : ""));

        List<AgUiEvent> events = run(AgentDefinition.builder("chat").build(), RunFixtures.newThread(input, journal));

        assertFalse(RunFixtures.types(events).contains("TOOL_CALL_RESULT"));
        assertEquals(new RunOutcome.Success(List.of("c1")), ((AgUiEvent.RunFinished) last(events)).outcome(),
                "the run names the call it leaves the client");
        assertEquals(1, model.requests.size());
        List<Message> committed = journal.commits.get(0).messages();
        assertEquals(List.of("user", "assistant"), committed.stream().map(Message::role).toList(),
                committed.toString());
        Message.Assistant call = (Message.Assistant) committed.get(1);
        assertEquals("change_background", call.toolCalls().get(0).function().name());
    }

    /** A model that answers nothing at all (no text, no call) leaves no assistant message the client never saw. */
    @Test
    void aModelThatAnswersNothingLeavesNoEmptyAssistantMessage() {
        model.answer(new ModelEvent.Completed(null, FinishReason.STOP));

        List<AgUiEvent> events = run(AgentDefinition.builder("chat").build(),
                RunFixtures.newThread(RunFixtures.userAsks("Hi", "null"), journal));

        assertEquals(RunOutcome.SUCCESS, ((AgUiEvent.RunFinished) last(events)).outcome());
        assertEquals(List.of("u1"), journal.commits.get(0).messages().stream().map(Message::id).toList());
    }

    @Test
    void aCallThatNeedsConfirmationAsksInsteadOfRunningAndIsApprovedInTheNextRun() {
        AgentDefinition agent = RunFixtures.writer().requireConfirmation().build();
        model.answer(callsWriteDocument("c1", "Proposal"));
        JsonNode clientState = AgUiJson.tree("{\"document\":\"old\",\"notes\":[]}");

        List<AgUiEvent> asking = run(agent, RunFixtures.newThread(
                RunFixtures.userAsks("Rewrite it", clientState.toString()), journal));

        RunOutcome.Interrupted interrupted = assertInstanceOf(RunOutcome.Interrupted.class,
                ((AgUiEvent.RunFinished) last(asking)).outcome());
        Interrupt interrupt = interrupted.interrupts().get(0);
        assertEquals("c1", interrupt.toolCallId());
        assertFalse(RunFixtures.types(asking).contains("TOOL_CALL_RESULT"));
        RunFixtures.RecordingJournal.Commit asked = journal.commits.get(0);
        assertEquals("old", asked.state().get("document").asText(), "a proposal is never stored as the state");
        assertEquals(List.of(interrupt), asked.interrupts().open());

        model.answer(says("Applied."));
        RunAgentInput approve = RunFixtures.input("""
                {"threadId":"t","runId":"r2","messages":[],"state":{"document":"Proposal","notes":[]},
                 "resume":[{"interruptId":"%s","status":"resolved","payload":{"approved":true}}]}"""
                .formatted(interrupt.id()));
        List<AgUiEvent> approved = run(agent, RunFixtures.storedThread(approve, asked, List.of(), false));

        AgUiEvent.ToolCallResult result = (AgUiEvent.ToolCallResult) approved.stream()
                .filter(e -> e instanceof AgUiEvent.ToolCallResult).findFirst().orElseThrow();
        assertEquals("c1", result.toolCallId());
        assertEquals("Proposal", journal.commits.get(1).state().get("document").asText());
        assertEquals(List.of(), journal.commits.get(1).interrupts().open());
    }

    @Test
    void aTwoPhaseAgentWritesTheStateThenSummarises() {
        model.answer(says("{\"document\":\"New\",\"notes\":[]}")).answer(says("I rewrote it."));
        RunAgentInput input = RunFixtures.userAsks("Rewrite", "{\"document\":\"Old\",\"notes\":[]}");

        List<AgUiEvent> events = run(RunFixtures.writer().twoPhaseState().build(), RunFixtures.newThread(input, journal));

        assertEquals("New", journal.commits.get(0).state().get("document").asText());
        List<ChatMessage> summaryCall = model.requests.get(1).messages();
        assertEquals(ChatRequests.SUMMARY_PROMPT, ((SystemMessage) summaryCall.get(summaryCall.size() - 1)).text());
        assertEquals(List.of("I rewrote it."), events.stream().filter(e -> e instanceof AgUiEvent.TextMessageContent)
                .map(e -> ((AgUiEvent.TextMessageContent) e).delta()).toList());
    }

    @Test
    void aModelThatNeverStopsCallingToolsEndsWithMaxRoundsAndKeepsTheRoundsItCompleted() {
        for (int i = 0; i < 3; i++) {
            model.answer(new ModelEvent.ToolCallCompleted(0, "c" + i, "add_note", "{\"notes\":[\"again\"]}"),
                    new ModelEvent.Completed(null, FinishReason.STOP));
        }

        List<AgUiEvent> events = run(RunFixtures.writer().build(),
                RunFixtures.newThread(RunFixtures.userAsks("Loop", "null"), journal));

        assertEquals("max_rounds_exceeded", ((AgUiEvent.RunError) last(events)).code());
        // the tools really ran: each completed round is kept, and the thread records how the run ended
        assertEquals(List.of(new RunEnd("max_rounds_exceeded")), journal.ends);
        RunFixtures.RecordingJournal.Commit kept = journal.commits.get(0);
        assertEquals(AgUiJson.tree("{\"notes\":[\"again\",\"again\",\"again\"]}"), kept.state());
        assertEquals(7, kept.messages().size(), "the user's message and three rounds of a call and its result");
    }

    @Test
    void aStoppedRunClosesTheModelCallFinishesCancelledAndKeepsWhatItCompleted() {
        model.answerThenStall(new ModelEvent.TextDelta("Once upon"));
        StopSwitch stop = new StopSwitch();
        RunStart start = RunFixtures.newThread(RunFixtures.userAsks("Tell a story", "null"), journal);
        List<AgUiEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();

        io.smallrye.mutiny.Uni<Void> done = runner.run(AgentDefinition.builder("chat").build(), start, stop, new RunInbox(), Context.root())
                .onItem().invoke(event -> {
                    events.add(event);
                    if (event instanceof AgUiEvent.TextMessageContent) {
                        stop.stop(StopSwitch.Reason.REQUESTED);
                    }
                })
                .collect().asList().replaceWithVoid();
        done.await().atMost(Duration.ofSeconds(10));

        EventStreamVerifier.verify(RunFixtures.json(events), "t", "r");
        assertEquals(RunOutcome.CANCELLED, ((AgUiEvent.RunFinished) last(events)).outcome());
        assertTrue(model.cancelled, "the model call in flight is closed");
        assertEquals(List.of(RunEnd.CANCELLED), journal.ends);
        assertEquals(1, journal.commits.get(0).messages().size(), "the user's message is kept, the cut answer not");
    }

    /**
     * A stop that comes while an event is on its way to the client neither waits for it (nothing is passed on under
     * a lock: the client's connection may be slow) nor overtakes it, and nothing of the work follows it.
     */
    @Test
    void aStopWhileAnEventIsBeingPassedOnNeitherWaitsForItNorOvertakesIt() {
        StoppedRun stopped = stopWhilePassing(AgUiEvent.TextMessageContent.class, new ModelEvent.TextDelta("Once upon"),
                new ModelEvent.TextDelta(" a time"), new ModelEvent.Completed(null, FinishReason.STOP));

        assertTrue(stopped.stopReturnedMeanwhile(), "the stop returned while the event was being passed on");
        assertEquals(List.of("Once upon"), stopped.events().stream()
                .filter(e -> e instanceof AgUiEvent.TextMessageContent)
                .map(e -> ((AgUiEvent.TextMessageContent) e).delta()).toList(), "nothing of the work follows");
        assertEquals(RunOutcome.CANCELLED, ((AgUiEvent.RunFinished) last(stopped.events())).outcome());
        assertTrue(model.cancelled, "the model call in flight is closed");
        assertEquals(List.of(RunEnd.CANCELLED), journal.ends);
    }

    /** A stop that comes while the run's own terminal event is on its way out neither waits for it nor changes it. */
    @Test
    void aStopWhileTheRunsLastEventIsBeingPassedOnChangesNothing() {
        StoppedRun stopped = stopWhilePassing(AgUiEvent.RunFinished.class, new ModelEvent.TextDelta("Hello!"),
                new ModelEvent.Completed(null, FinishReason.STOP));

        assertTrue(stopped.stopReturnedMeanwhile(), "the stop returned while the event was being passed on");
        assertEquals(RunOutcome.SUCCESS, ((AgUiEvent.RunFinished) last(stopped.events())).outcome());
        assertEquals(List.of(RunEnd.SUCCESS), journal.ends);
    }

    private record StoppedRun(List<AgUiEvent> events, boolean stopReturnedMeanwhile) {}

    /**
     * A run whose model streams {@code fed} from this thread, as the LLM client's callbacks do; while the first event
     * of type {@code at} is being passed on to the client, a stop comes from another thread.
     */
    private StoppedRun stopWhilePassing(Class<? extends AgUiEvent> at, ModelEvent... fed) {
        UnicastProcessor<ModelEvent> llm = UnicastProcessor.create();
        model.answerFed(llm);
        StopSwitch stop = new StopSwitch();
        List<Boolean> stopReturnedMeanwhile = new ArrayList<>();
        AssertSubscriber<AgUiEvent> client = runner.run(AgentDefinition.builder("chat").build(),
                        RunFixtures.newThread(RunFixtures.userAsks("Tell a story", "null"), journal), stop, new RunInbox(), Context.root())
                .onItem().invoke(event -> {
                    if (at.isInstance(event) && stopReturnedMeanwhile.isEmpty()) {
                        stopReturnedMeanwhile.add(OtherThread.returnsMeanwhile(
                                () -> stop.stop(StopSwitch.Reason.REQUESTED)));
                    }
                })
                .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));

        for (ModelEvent event : fed) {
            llm.onNext(event);
        }
        llm.onComplete();
        List<AgUiEvent> events = client.awaitCompletion(Duration.ofSeconds(20)).getItems();
        EventStreamVerifier.verify(RunFixtures.json(events), "t", "r");
        return new StoppedRun(events, stopReturnedMeanwhile.equals(List.of(true)));
    }

    @Test
    void aRunOverItsTimeLimitFailsWithMaxDurationAndKeepsWhatItCompleted() {
        model.answerThenStall();
        StopSwitch stop = new StopSwitch();
        RunStart start = RunFixtures.newThread(RunFixtures.userAsks("Think long", "null"), journal);

        List<AgUiEvent> events = runner.run(AgentDefinition.builder("chat").build(), start, stop, new RunInbox(), Context.root())
                .onItem().invoke(event -> {
                    if (event instanceof AgUiEvent.RunStarted) {
                        stop.stop(StopSwitch.Reason.TIME_LIMIT);
                    }
                })
                .collect().asList().await().atMost(Duration.ofSeconds(10));

        assertEquals("max_duration_exceeded", ((AgUiEvent.RunError) last(events)).code());
        assertEquals(List.of(new RunEnd("max_duration_exceeded")), journal.ends);
    }

    @Test
    void aCommitThatFailsIsTheRunsError() {
        model.answer(says("Hello!"));
        journal.failure = new RunFailure("thread_conflict", "changed meanwhile");

        List<AgUiEvent> events = run(AgentDefinition.builder("chat").build(),
                RunFixtures.newThread(RunFixtures.userAsks("Hi", "null"), journal));

        assertEquals("thread_conflict", ((AgUiEvent.RunError) last(events)).code());
        assertEquals(List.of(), journal.commits);
    }

    @Test
    void clientStateThatBreaksTheSchemaIsRejectedBeforeAnyEvent() {
        RunRejected rejected = assertThrows(RunRejected.class, () -> runner.run(RunFixtures.writer().build(),
                RunFixtures.newThread(RunFixtures.userAsks("Hi", "{\"document\":42}"), journal), new StopSwitch(), new RunInbox(), Context.root()));

        assertEquals("invalid_state", rejected.code());
        assertTrue(model.requests.isEmpty());
    }

    @Test
    void aRunWithNothingToAnswerRestatesTheThreadAndNeitherCallsTheModelNorWrites() {
        model.answer(says("Hello!"));
        run(AgentDefinition.builder("chat").build(), RunFixtures.newThread(RunFixtures.userAsks("Hi", "null"), journal));
        RunFixtures.RecordingJournal.Commit first = journal.commits.get(0);

        RunAgentInput reload = RunFixtures.input("{\"threadId\":\"t\",\"runId\":\"r2\",\"state\":{},\"messages\":[]}");
        List<AgUiEvent> events = run(AgentDefinition.builder("chat").build(),
                RunFixtures.storedThread(reload, first, List.of(), false));

        assertEquals(List.of("RUN_STARTED", "RUN_FINISHED"), RunFixtures.types(events));
        assertEquals(1, model.requests.size(), "no second LLM call");
        assertEquals(1, journal.commits.size(), "nothing written");
    }

    @Test
    void aRunOnAThreadWaitingForConfirmationWithNothingToAnswerAsksAgain() {
        AgentDefinition agent = RunFixtures.writer().requireConfirmation().build();
        model.answer(callsWriteDocument("c1", "Proposal"));
        run(agent, RunFixtures.newThread(RunFixtures.userAsks("Rewrite it", "{\"document\":\"old\"}"), journal));
        RunFixtures.RecordingJournal.Commit asked = journal.commits.get(0);

        RunAgentInput reload = RunFixtures.input("{\"threadId\":\"t\",\"runId\":\"r2\",\"messages\":[]}");
        List<AgUiEvent> events = run(agent, RunFixtures.storedThread(reload, asked, List.of(), false));

        RunOutcome.Interrupted again = assertInstanceOf(RunOutcome.Interrupted.class,
                ((AgUiEvent.RunFinished) last(events)).outcome());
        assertEquals(asked.interrupts().open(), again.interrupts());
        assertEquals(1, journal.commits.size());
    }

    /**
     * A resume stopped while its approved call runs keeps nothing of that round, so the call has no result yet: the
     * thread still asks the question (rather than holding a call no one is asked about), and answering it again
     * carries the call out once.
     */
    @Test
    void aResumeStoppedBeforeItsAnswerIsCarriedOutLeavesTheQuestionOpen() throws InterruptedException {
        ToolGate gate = new ToolGate();
        AgentDefinition agent = gate.writer();
        model.answer(callsWriteDocument("c1", "Proposal"));
        run(agent, RunFixtures.newThread(RunFixtures.userAsks("Rewrite it", "{\"document\":\"old\",\"notes\":[]}"),
                journal));
        RunFixtures.RecordingJournal.Commit asked = journal.commits.get(0);
        Interrupt interrupt = asked.interrupts().open().get(0);
        String approval = """
                {"threadId":"t","runId":"%s","messages":[],"state":{"document":"Proposal","notes":[]},
                 "resume":[{"interruptId":"%s","status":"resolved","payload":{"approved":true}}]}""";

        List<AgUiEvent> stopped = gate.stopWhileTheToolRuns(agent, RunFixtures.storedThread(
                RunFixtures.input(approval.formatted("r2", interrupt.id())), asked, List.of(), false));

        assertEquals(RunOutcome.CANCELLED, ((AgUiEvent.RunFinished) last(stopped)).outcome());
        RunFixtures.RecordingJournal.Commit kept = journal.commits.get(1);
        assertEquals(List.of(interrupt), kept.interrupts().open(), "the question is still asked");
        assertFalse(kept.messages().stream().anyMatch(m -> m instanceof Message.Tool), "the cut round is not kept");
        assertEquals("old", kept.state().get("document").asText());

        model.answer(says("Applied."));
        List<AgUiEvent> approved = run(agent, RunFixtures.storedThread(
                RunFixtures.input(approval.formatted("r3", interrupt.id())), kept, List.of(), false));

        assertEquals(List.of("c1"), approved.stream().filter(e -> e instanceof AgUiEvent.ToolCallResult)
                .map(e -> ((AgUiEvent.ToolCallResult) e).toolCallId()).toList());
        RunFixtures.RecordingJournal.Commit done = journal.commits.get(2);
        assertEquals("Proposal", done.state().get("document").asText());
        assertEquals(List.of(), done.interrupts().open());
        assertEquals(List.of(interrupt.id()), done.interrupts().resolved());
    }

    /**
     * In the client-tool form the answer is a message the stopped resume kept: it stands, so the user's next message
     * (with it the client sends the answer again, no longer new) carries the approved call out rather than declining
     * it as a message sent instead of an answer would.
     */
    @Test
    void aKeptConfirmChangesAnswerOfAStoppedResumeStands() throws InterruptedException {
        ToolGate gate = new ToolGate();
        AgentDefinition agent = gate.writer();
        model.answer(callsWriteDocument("c1", "Proposal"));
        String tools = "\"tools\":[{\"name\":\"confirm_changes\",\"description\":\"asks\"}]";
        run(agent, RunFixtures.newThread(RunFixtures.input("""
                {"threadId":"t","runId":"r","state":{"document":"old","notes":[]},%s,
                 "messages":[{"id":"u1","role":"user","content":"Rewrite it"}]}""".formatted(tools)), journal));
        RunFixtures.RecordingJournal.Commit asked = journal.commits.get(0);
        String confirmId = asked.interrupts().open().get(0).id();
        Message answer = RunFixtures.input("""
                {"threadId":"t","runId":"x","messages":[{"id":"a1","role":"tool","toolCallId":"%s",
                 "content":"{\\"accepted\\":true}"}]}""".formatted(confirmId)).messages().get(0);
        RunAgentInput answering = RunFixtures.input("""
                {"threadId":"t","runId":"r2","state":{"document":"old","notes":[]},%s,"messages":[]}"""
                .formatted(tools));

        gate.stopWhileTheToolRuns(agent, RunFixtures.storedThread(answering, asked, List.of(answer), true));
        RunFixtures.RecordingJournal.Commit kept = journal.commits.get(1);
        assertEquals(asked.interrupts().open(), kept.interrupts().open(), "the question is still asked");
        assertTrue(kept.messages().contains(answer), "the answer is kept");

        model.answer(says("Applied."));
        RunAgentInput again = RunFixtures.input("""
                {"threadId":"t","runId":"r3","state":{"document":"old","notes":[]},%s,
                 "messages":[{"id":"u2","role":"user","content":"Go on"}]}""".formatted(tools));
        List<AgUiEvent> applied = run(agent, RunFixtures.storedThread(again, kept, again.messages(), true));

        assertTrue(applied.stream().anyMatch(e -> e instanceof AgUiEvent.ToolCallResult result
                && result.toolCallId().equals("c1")), RunFixtures.types(applied).toString());
        assertEquals("Proposal", journal.commits.get(2).state().get("document").asText());
        assertEquals(List.of(), journal.commits.get(2).interrupts().open());
    }

    /** A writer whose {@code write_document} needs confirmation and, the first time it runs, waits to be let go. */
    private final class ToolGate {
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        AgentDefinition writer() {
            return AgentDefinition.builder("writer")
                    .state(RunFixtures.DOCUMENT)
                    .tool(BackendTool.builder("write_document")
                            .description("Replace the document")
                            .stringParameter("document", "the new text", true)
                            .outputToState("document", "document")
                            .handler((args, context) -> {
                                entered.countDown();
                                released.await();
                                return args;
                            }))
                    .requireConfirmation()
                    .build();
        }

        /** Runs until the tool is entered, stops the run there, lets the tool go, and returns what was streamed. */
        List<AgUiEvent> stopWhileTheToolRuns(AgentDefinition agent, RunStart start) throws InterruptedException {
            StopSwitch stop = new StopSwitch();
            AssertSubscriber<AgUiEvent> events = runner.run(agent, start, stop, new RunInbox(), Context.root())
                    .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
            assertTrue(entered.await(10, TimeUnit.SECONDS), "the approved call runs");
            stop.stop(StopSwitch.Reason.REQUESTED);
            events.awaitCompletion(Duration.ofSeconds(10));
            released.countDown();
            EventStreamVerifier.verify(RunFixtures.json(events.getItems()), start.input().threadId(),
                    start.input().runId());
            return events.getItems();
        }
    }

    @Test
    void anAgentsStateIsFreeFormUnlessItIsStatelessAndAnyAgentRefusesAStateThatIsNoObject() {
        model.answer(says("Noted."));
        run(AgentDefinition.builder("chat").build(),
                RunFixtures.newThread(RunFixtures.userAsks("Hi", "{\"cart\":[\"apple\"]}"), journal));

        assertTrue(((SystemMessage) model.requests.get(0).messages().get(0)).text().contains("{\"cart\":[\"apple\"]}"));
        assertEquals(AgUiJson.tree("{\"cart\":[\"apple\"]}"), journal.commits.get(0).state());
        for (AgentDefinition agent : List.of(AgentDefinition.builder("chat").build(),
                AgentDefinition.builder("plain").stateless().build())) {
            assertThrows(RunRejected.class, () -> runner.run(agent,
                    RunFixtures.newThread(RunFixtures.userAsks("Hi", "[1,2]"), journal), new StopSwitch(), new RunInbox(), Context.root()));
        }
    }

    /** A new kind of resumption needs a step in {@link AgentRunner}: this fails until the test learns it. */
    @Test
    void everyKindOfResumptionHasAStep() {
        Set<String> kinds = Arrays.stream(Confirmations.Resumption.class.getPermittedSubclasses())
                .map(Class::getSimpleName).collect(Collectors.toSet());

        assertEquals(Set.of("NothingOpen", "Repeated", "Answered"), kinds);
    }
}
