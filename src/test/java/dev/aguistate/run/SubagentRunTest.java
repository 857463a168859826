package dev.aguistate.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.llm.FinishReason;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.ModelUsage;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.MessageContent;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.protocol.TokenUsage;
import dev.aguistate.run.tracing.RunTracing;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.tools.BackendTool;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Agents as tools through the run loop: a supervisor's call of a sub-agent runs the sub-agent's own run. */
@Execution(ExecutionMode.CONCURRENT)
class SubagentRunTest {

    private final StubStreamingModel model = new StubStreamingModel();
    private final RunFixtures.RecordingJournal journal = new RunFixtures.RecordingJournal();
    private final AgentRunner runner = new AgentRunner(model, RunFixtures.settings(Duration.ZERO, 3),
            new RunMetrics(new SimpleMeterRegistry()), new RunTracing(OpenTelemetry.noop().getTracer("test"), false));

    private static final AgentDefinition RESEARCHER = AgentDefinition.builder("researcher")
            .description("Finds facts").instructions("You research.").stateless().build();

    private static AgentDefinition supervisor(AgentDefinition... subagents) {
        AgentDefinition.Builder builder = AgentDefinition.builder("supervisor").instructions("You delegate.");
        for (AgentDefinition subagent : subagents) {
            builder.subagent(subagent);
        }
        return builder.build();
    }

    private static ModelEvent[] delegates(String... callIdsAndTasks) {
        List<ModelEvent> events = new java.util.ArrayList<>();
        for (int i = 0; i < callIdsAndTasks.length; i += 2) {
            events.add(new ModelEvent.ToolCallCompleted(i / 2, callIdsAndTasks[i], "researcher",
                    "{\"task\":\"" + callIdsAndTasks[i + 1] + "\"}"));
        }
        events.add(new ModelEvent.Completed(null, FinishReason.STOP));
        return events.toArray(ModelEvent[]::new);
    }

    private static ModelEvent[] says(String text) {
        return new ModelEvent[] {new ModelEvent.TextDelta(text), new ModelEvent.Completed(null, FinishReason.STOP)};
    }

    private List<AgUiEvent> run(AgentDefinition agent) {
        RunStart start = RunFixtures.newThread(RunFixtures.userAsks("Find out about otters", "null"), journal);
        List<AgUiEvent> events = runner.run(agent, start, new StopSwitch(), new RunInbox(), Context.root())
                .collect().asList().await().atMost(Duration.ofSeconds(10));
        EventStreamVerifier.verify(RunFixtures.json(events), "t", "r");
        return events;
    }

    /** A supervisor's run asked to stop when it sends its first event of type {@code at}. */
    private List<AgUiEvent> stoppedAt(Class<? extends AgUiEvent> at) {
        StopSwitch stop = new StopSwitch();
        RunStart start = RunFixtures.newThread(RunFixtures.userAsks("Find out", "null"), journal);
        List<AgUiEvent> events = new CopyOnWriteArrayList<>();
        runner.run(supervisor(RESEARCHER), start, stop, new RunInbox(), Context.root())
                .onItem().invoke(event -> {
                    events.add(event);
                    if (at.isInstance(event)) {
                        stop.stop(StopSwitch.Reason.REQUESTED);
                    }
                })
                .collect().asList().await().atMost(Duration.ofSeconds(10));
        EventStreamVerifier.verify(RunFixtures.json(events), "t", "r");
        return events;
    }

    private static <T extends AgUiEvent> List<T> of(List<AgUiEvent> events, Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Test
    void aSubagentCallStreamsTheChildsAttributedRunAndItsAnswerIsTheResult() {
        model.answer(delegates("c1", "Otter facts")).answer(says("Otters hold hands.")).answer(says("Done: they do."));

        List<AgUiEvent> events = run(supervisor(RESEARCHER));

        List<String> types = RunFixtures.types(events);
        AgUiEvent.SubagentStarted started = of(events, AgUiEvent.SubagentStarted.class).get(0);
        assertEquals("researcher", started.name());
        assertEquals("Finds facts", started.description());
        assertEquals("c1", started.parentToolCallId());
        String id = started.subagentRunId();
        AgUiEvent.TextMessageContent childText = of(events, AgUiEvent.TextMessageContent.class).get(0);
        assertEquals("Otters hold hands.", childText.delta());
        assertEquals(id, childText.subagentRunId());
        of(events, AgUiEvent.TextMessageStart.class).stream().limit(1)
                .forEach(start -> assertEquals(id, start.subagentRunId()));
        AgUiEvent.SubagentFinished finished = of(events, AgUiEvent.SubagentFinished.class).get(0);
        assertEquals(id, finished.subagentRunId());
        assertEquals("Otters hold hands.", finished.result().asText());
        AgUiEvent.ToolCallResult result = of(events, AgUiEvent.ToolCallResult.class).get(0);
        assertEquals("c1", result.toolCallId());
        assertNull(result.subagentRunId(), "the call is the parent's");
        assertEquals("Otters hold hands.", result.content().text());
        assertTrue(types.indexOf("SUBAGENT_STARTED") < types.indexOf("TEXT_MESSAGE_START")
                && types.indexOf("SUBAGENT_FINISHED") < types.indexOf("TOOL_CALL_RESULT"), types.toString());
        AgUiEvent.TextMessageContent parentText = of(events, AgUiEvent.TextMessageContent.class).get(1);
        assertEquals("Done: they do.", parentText.delta());
        assertNull(parentText.subagentRunId());
        assertEquals(RunOutcome.SUCCESS, ((AgUiEvent.RunFinished) events.get(events.size() - 1)).outcome());

        List<ChatMessage> childRequest = model.requests.get(1).messages();
        assertEquals("You research.", ((SystemMessage) childRequest.get(0)).text().lines().findFirst().orElseThrow());
        assertEquals("Otter facts", ((UserMessage) childRequest.get(childRequest.size() - 1)).singleText());
        List<ChatMessage> parentAgain = model.requests.get(2).messages();
        assertTrue(parentAgain.stream().noneMatch(m -> m.toString().contains("hold hands") && !(m instanceof
                ToolExecutionResultMessage)), "the parent's LLM reads the answer as the result only: " + parentAgain);
        assertTrue(parentAgain.stream().anyMatch(m -> m instanceof ToolExecutionResultMessage r
                && r.text().equals("Otters hold hands.")));

        List<Message> kept = journal.commits.get(journal.commits.size() - 1).messages();
        List<Message> attributed = kept.stream().filter(m -> id.equals(m.subagentRunId())).toList();
        assertEquals(1, attributed.size(), kept.toString());
        assertEquals("Otters hold hands.", ((Message.Assistant) attributed.get(0)).content());
        assertEquals(childText.messageId(), attributed.get(0).id(), "kept as the client saw it");
        assertEquals("Done: they do.", ((Message.Assistant) kept.get(kept.size() - 1)).content());
    }

    @Test
    void aFailingSubagentIsASubagentErrorAndTheParentsLlmReadsAToolError() {
        AgentDefinition failing = AgentDefinition.builder("researcher").stateless().raiseOnToolFailure(true)
                .tool(BackendTool.builder("search").handler((arguments, context) -> {
                    throw new IllegalStateException("index offline");
                })).build();
        model.answer(delegates("c1", "Otter facts"))
                .answer(new ModelEvent.ToolCallCompleted(0, "s1", "search", "{}"),
                        new ModelEvent.Completed(null, FinishReason.STOP))
                .answer(says("The researcher failed, sorry."));

        List<AgUiEvent> events = run(supervisor(failing));

        AgUiEvent.SubagentError error = of(events, AgUiEvent.SubagentError.class).get(0);
        assertEquals(of(events, AgUiEvent.SubagentStarted.class).get(0).subagentRunId(), error.subagentRunId());
        assertEquals("tool_failed", error.code());
        assertTrue(of(events, AgUiEvent.SubagentFinished.class).isEmpty());
        assertTrue(of(events, AgUiEvent.ToolCallResult.class).stream()
                .anyMatch(r -> r.toolCallId().equals("c1") && r.content().text().startsWith("Error: the sub-agent researcher failed")));
        assertEquals(RunOutcome.SUCCESS, ((AgUiEvent.RunFinished) events.get(events.size() - 1)).outcome(),
                "the parent run goes on");
        assertEquals(3, model.requests.size());
    }

    @Test
    void twoCallsInOneRoundAreTwoSubagentRuns() {
        model.answer(delegates("c1", "Otters", "c2", "Beavers")).answer(says("Facts.")).answer(says("Facts."))
                .answer(says("Both done."));

        List<AgUiEvent> events = run(supervisor(RESEARCHER));

        List<AgUiEvent.SubagentStarted> started = of(events, AgUiEvent.SubagentStarted.class);
        assertEquals(2, started.size());
        assertNotEquals(started.get(0).subagentRunId(), started.get(1).subagentRunId());
        assertEquals(List.of("c1", "c2"), started.stream().map(AgUiEvent.SubagentStarted::parentToolCallId).sorted()
                .toList());
        assertEquals(2, of(events, AgUiEvent.SubagentFinished.class).size());
        List<Message> kept = journal.commits.get(journal.commits.size() - 1).messages();
        assertEquals(2, kept.stream().filter(m -> m.subagentRunId() != null).map(Message::subagentRunId).distinct()
                .count(), kept.toString());
    }

    @Test
    void stoppingTheParentCancelsTheSubagentsModelCall() {
        model.answer(delegates("c1", "Otters")).answerThenStall();

        List<AgUiEvent> events = stoppedAt(AgUiEvent.SubagentStarted.class);
        assertEquals(RunOutcome.CANCELLED, ((AgUiEvent.RunFinished) events.get(events.size() - 1)).outcome());
        assertTrue(model.cancelled, "the sub-agent's model call is closed");
        assertFalse(RunFixtures.types(events).contains("TOOL_CALL_RESULT"));
    }

    @Test
    void aStopWhileTheSubagentSpeaksClosesItsMessageAndEndsIt() {
        model.answer(delegates("c1", "Otters")).answerThenStall(new ModelEvent.TextDelta("Otters are"));

        List<AgUiEvent> events = stoppedAt(AgUiEvent.TextMessageContent.class);
        String id = of(events, AgUiEvent.SubagentStarted.class).get(0).subagentRunId();
        AgUiEvent.TextMessageEnd end = of(events, AgUiEvent.TextMessageEnd.class).get(0);
        assertEquals(id, end.subagentRunId(), "the sub-agent's open message is closed as its own");
        AgUiEvent.SubagentError stopped = of(events, AgUiEvent.SubagentError.class).get(0);
        assertEquals(List.of(id, "cancelled"), List.of(stopped.subagentRunId(), stopped.code()));
        assertEquals(RunOutcome.CANCELLED, ((AgUiEvent.RunFinished) events.get(events.size() - 1)).outcome());
        assertTrue(model.cancelled);
    }

    @Test
    void aNestedSubagentNamesItsParentSubagent() {
        AgentDefinition middle = AgentDefinition.builder("editor").stateless().subagent(RESEARCHER).build();
        model.answer(new ModelEvent.ToolCallCompleted(0, "c1", "editor", "{\"task\":\"Edit\"}"),
                        new ModelEvent.Completed(null, FinishReason.STOP))
                .answer(delegates("c2", "Research"))
                .answer(says("Fact."))
                .answer(says("Edited."))
                .answer(says("All done."));

        List<AgUiEvent> events = run(supervisor(middle));

        List<AgUiEvent.SubagentStarted> started = of(events, AgUiEvent.SubagentStarted.class);
        assertEquals(List.of("editor", "researcher"), started.stream().map(AgUiEvent.SubagentStarted::name).toList());
        assertNull(started.get(0).parentSubagentRunId());
        assertEquals(started.get(0).subagentRunId(), started.get(1).parentSubagentRunId());
        AgUiEvent.TextMessageContent fact = of(events, AgUiEvent.TextMessageContent.class).get(0);
        assertEquals(started.get(1).subagentRunId(), fact.subagentRunId(), "the researcher's text is its own");
        AgUiEvent.ToolCallResult inner = of(events, AgUiEvent.ToolCallResult.class).get(0);
        assertEquals("c2", inner.toolCallId());
        assertEquals(started.get(0).subagentRunId(), inner.subagentRunId(), "the editor's call's result is the editor's");
    }

    @Test
    void theSubagentsRunIsAnInvokeAgentSpanUnderTheCallsExecuteToolSpan() {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        AgentRunner traced = traced(spans, false);
        model.answer(delegates("c1", "Otter facts")).answer(says("Otters hold hands.")).answer(says("Done."));

        traced.run(supervisor(RESEARCHER), RunFixtures.newThread(RunFixtures.userAsks("Otters?", "null"), journal),
                new StopSwitch(), new RunInbox(), Context.root()).collect().asList().await().atMost(Duration.ofSeconds(10));

        SpanData parent = named(spans, "invoke_agent supervisor");
        SpanData call = named(spans, "execute_tool researcher");
        SpanData child = named(spans, "invoke_agent researcher");
        assertEquals(call.getSpanId(), child.getParentSpanId());
        assertEquals(parent.getTraceId(), child.getTraceId());
        assertEquals(child.getSpanId(), spans.getFinishedSpanItems().stream()
                .filter(span -> span.getName().startsWith("chat ") && span.getParentSpanId().equals(child.getSpanId()))
                .findFirst().orElseThrow().getParentSpanId(), "the sub-agent's LLM call is under its run");
    }

    @Test
    void aSuspendedCallsSpanSaysSoAndHoldsNoResult() {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        AgentRunner traced = traced(spans, true);
        model.answer(delegates("c1", "Publish otters"))
                .answer(new ModelEvent.ToolCallCompleted(0, "p1", "publish", "{\"title\":\"Otters\"}"),
                        new ModelEvent.Completed(null, FinishReason.STOP));

        traced.run(supervisor(careful(new AtomicInteger())),
                RunFixtures.newThread(RunFixtures.userAsks("Otters?", "null"), journal), new StopSwitch(),
                new RunInbox(), Context.root()).collect().asList().await().atMost(Duration.ofSeconds(10));

        SpanData call = named(spans, "execute_tool researcher");
        assertEquals("suspended", call.getAttributes().get(AttributeKey.stringKey("agui.tool.outcome")));
        assertNull(call.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.call.result")),
                "the call has no result yet, though content is captured");
        assertEquals(StatusCode.UNSET, call.getStatus().getStatusCode());
    }

    /** The runner with its spans recorded in {@code spans}. */
    private AgentRunner traced(InMemorySpanExporter spans, boolean captureContent) {
        SdkTracerProvider tracers = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans))
                .build();
        return new AgentRunner(model, RunFixtures.settings(Duration.ZERO, 3), new RunMetrics(new SimpleMeterRegistry()),
                new RunTracing(tracers.get("test"), captureContent));
    }

    private static SpanData named(InMemorySpanExporter spans, String name) {
        return spans.getFinishedSpanItems().stream().filter(span -> span.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " in " + spans.getFinishedSpanItems()));
    }

    @Test
    void theParentsUsageCountsItsSubagentsCalls() {
        model.answer(new ModelEvent.ToolCallCompleted(0, "c1", "researcher", "{\"task\":\"Otters\"}"),
                        new ModelEvent.Completed(new ModelUsage("m", 100, 10, 110, null, null), FinishReason.STOP))
                .answer(new ModelEvent.TextDelta("Facts."),
                        new ModelEvent.Completed(new ModelUsage("m", 40, 5, 45, null, null), FinishReason.STOP))
                .answer(new ModelEvent.TextDelta("Done."),
                        new ModelEvent.Completed(new ModelUsage("m", 120, 3, 123, null, null), FinishReason.STOP));

        List<AgUiEvent> events = run(supervisor(RESEARCHER));

        TokenUsage usage = ((AgUiEvent.RunFinished) events.get(events.size() - 1)).usage().get(0);
        assertEquals(List.of(260, 18, 278), List.of(usage.inputTokens(), usage.outputTokens(), usage.totalTokens()),
                "the supervisor's two calls and the researcher's one");
    }

    /** A researcher that must ask before it publishes; {@code published} counts the tool's runs. */
    private static AgentDefinition careful(AtomicInteger published) {
        return AgentDefinition.builder("researcher").stateless()
                .tool(BackendTool.builder("publish").stringParameter("title", "The title", true)
                        .handler((arguments, context) -> "published #" + published.incrementAndGet()))
                .requireConfirmation("publish").build();
    }

    /** The supervisor's run in which its researcher asks to publish: the run ends waiting for the answer. */
    private List<AgUiEvent> askedToPublish(AgentDefinition supervisor) {
        model.answer(delegates("c1", "Publish otters"))
                .answer(new ModelEvent.ToolCallCompleted(0, "p1", "publish", "{\"title\":\"Otters\"}"),
                        new ModelEvent.Completed(null, FinishReason.STOP));
        return run(supervisor);
    }

    /** The next run of the thread {@code journal} keeps, as a client's answer to interrupt {@code id}. */
    private List<AgUiEvent> resume(AgentDefinition agent, String resumeJson) {
        RunAgentInput input = RunFixtures.input("""
                {"threadId":"t","runId":"r2","messages":[],"resume":[%s]}""".formatted(resumeJson));
        RunStart start = RunFixtures.storedThread(input, journal.commits.get(journal.commits.size() - 1), List.of(),
                false);
        List<AgUiEvent> events = runner.run(agent, start, new StopSwitch(), new RunInbox(), Context.root())
                .collect().asList().await().atMost(Duration.ofSeconds(10));
        EventStreamVerifier.verify(RunFixtures.json(events), "t", "r2");
        return events;
    }

    @Test
    void aSubagentThatAsksForConfirmationSuspendsTheParentRunAsAnInterrupt() {
        AtomicInteger published = new AtomicInteger();

        List<AgUiEvent> events = askedToPublish(supervisor(careful(published)));

        String id = of(events, AgUiEvent.SubagentStarted.class).get(0).subagentRunId();
        AgUiEvent.ToolCallStart asked = of(events, AgUiEvent.ToolCallStart.class).get(1);
        assertEquals(List.of("p1", id), List.of(asked.toolCallId(), asked.subagentRunId()));
        RunOutcome.Interrupted outcome = (RunOutcome.Interrupted)
                ((AgUiEvent.RunFinished) events.get(events.size() - 1)).outcome();
        Interrupt interrupt = outcome.interrupts().get(0);
        assertEquals(List.of("p1", id, "c1"), List.of(interrupt.toolCallId(), interrupt.subagentRunId(),
                interrupt.metadata().path("parentToolCallId").asText()), "the researcher's question, in c1");
        AgUiEvent.SubagentFinished suspended = of(events, AgUiEvent.SubagentFinished.class).get(0);
        assertEquals(id, suspended.subagentRunId());
        assertNull(suspended.result());
        assertEquals("suspended", suspended.outcome().type());
        assertEquals(List.of(interrupt.id()), suspended.outcome().interruptIds());
        assertTrue(of(events, AgUiEvent.ToolCallResult.class).isEmpty(), "neither call has a result yet");
        assertEquals(0, published.get());
        assertEquals(2, model.requests.size(), "the supervisor's LLM waits too");

        assertEquals(List.of(RunEnd.INTERRUPTED), journal.ends);
        RunFixtures.RecordingJournal.Commit kept = journal.commits.get(0);
        assertEquals(outcome.interrupts(), kept.interrupts().open());
        assertEquals(List.of("user", "assistant", "assistant"), kept.messages().stream().map(Message::role).toList());
        Message.Assistant question = (Message.Assistant) kept.messages().get(2);
        assertEquals(List.of(id, "p1"), List.of(question.subagentRunId(), question.toolCalls().get(0).id()));
    }

    @Test
    void anApprovalResumesTheSubagentWhereItStoppedThenTheParent() {
        AtomicInteger published = new AtomicInteger();
        AgentDefinition supervisor = supervisor(careful(published));
        List<AgUiEvent> first = askedToPublish(supervisor);
        String id = of(first, AgUiEvent.SubagentStarted.class).get(0).subagentRunId();
        String interrupt = ((RunOutcome.Interrupted) ((AgUiEvent.RunFinished) first.get(first.size() - 1)).outcome())
                .interrupts().get(0).id();
        model.answer(says("Published the otters.")).answer(says("Done: it is out."));

        List<AgUiEvent> events = resume(supervisor, """
                {"interruptId":"%s","status":"resolved","payload":{"approved":true}}""".formatted(interrupt));

        assertEquals(1, published.get(), RunFixtures.json(events).toString());
        AgUiEvent.SubagentStarted again = of(events, AgUiEvent.SubagentStarted.class).get(0);
        assertEquals(List.of(id, "c1"), List.of(again.subagentRunId(), again.parentToolCallId()),
                "the same sub-agent run, in the same call");
        List<AgUiEvent.ToolCallResult> results = of(events, AgUiEvent.ToolCallResult.class);
        assertEquals(List.of("p1", "c1"), results.stream().map(AgUiEvent.ToolCallResult::toolCallId).toList());
        assertEquals(id, results.get(0).subagentRunId());
        assertEquals("The user approved the change.\npublished #1", results.get(0).content().text());
        assertNull(results.get(1).subagentRunId());
        assertEquals("Published the otters.", results.get(1).content().text());
        AgUiEvent.SubagentFinished finished = of(events, AgUiEvent.SubagentFinished.class).get(0);
        assertEquals("Published the otters.", finished.result().asText());
        assertNull(finished.outcome());
        assertEquals(RunOutcome.SUCCESS, ((AgUiEvent.RunFinished) events.get(events.size() - 1)).outcome());

        List<ChatMessage> child = model.requests.get(2).messages();
        assertEquals(List.of("UserMessage", "AiMessage", "ToolExecutionResultMessage"),
                child.stream().map(m -> m.getClass().getSimpleName()).toList(), child.toString());
        assertEquals("Publish otters", ((UserMessage) child.get(0)).singleText(), "its task, then where it stopped");
        assertEquals("p1", ((AiMessage) child.get(1)).toolExecutionRequests().get(0).id());
        assertEquals("The user approved the change.\npublished #1", ((ToolExecutionResultMessage) child.get(2)).text());
        assertTrue(model.requests.get(3).messages().stream().anyMatch(m -> m instanceof ToolExecutionResultMessage r
                && r.id().equals("c1") && r.text().equals("Published the otters.")));

        RunFixtures.RecordingJournal.Commit kept = journal.commits.get(journal.commits.size() - 1);
        assertTrue(kept.interrupts().open().isEmpty());
        assertEquals(List.of(interrupt), kept.interrupts().resolved());
        assertEquals(List.of("user", "assistant:", "tool:", "assistant:" + id, "tool:" + id, "assistant:" + id,
                        "assistant:"), kept.messages().stream().map(m -> m.role().equals("user") ? "user"
                        : m.role() + ":" + (m.subagentRunId() == null ? "" : m.subagentRunId())).toList(),
                "the call's result, then the sub-agent's messages, then the supervisor's answer");

        List<AgUiEvent> twice = resume(supervisor, """
                {"interruptId":"%s","status":"resolved","payload":{"approved":true}}""".formatted(interrupt));
        assertEquals(1, published.get(), "a resume sent twice runs nothing again");
        assertEquals(4, model.requests.size());
        assertEquals(RunOutcome.SUCCESS, ((AgUiEvent.RunFinished) twice.get(twice.size() - 1)).outcome());
    }

    @Test
    void aRejectionIsTheSubagentsToReadAndTheParentGetsItsAnswer() {
        AtomicInteger published = new AtomicInteger();
        AgentDefinition supervisor = supervisor(careful(published));
        List<AgUiEvent> first = askedToPublish(supervisor);
        String interrupt = ((RunOutcome.Interrupted) ((AgUiEvent.RunFinished) first.get(first.size() - 1)).outcome())
                .interrupts().get(0).id();
        model.answer(says("The user did not want it published.")).answer(says("Not published."));

        List<AgUiEvent> events = resume(supervisor, """
                {"interruptId":"%s","status":"resolved","payload":{"approved":false}}""".formatted(interrupt));

        assertEquals(0, published.get());
        List<AgUiEvent.ToolCallResult> results = of(events, AgUiEvent.ToolCallResult.class);
        assertEquals(List.of("p1", "c1"), results.stream().map(AgUiEvent.ToolCallResult::toolCallId).toList());
        assertTrue(results.get(0).content().text().startsWith("The user declined the change"));
        assertEquals("The user did not want it published.", results.get(1).content().text());
        assertEquals(RunOutcome.SUCCESS, ((AgUiEvent.RunFinished) events.get(events.size() - 1)).outcome());
    }

    @Test
    void aPageThatConfirmsThroughConfirmChangesIsAskedByTheSubagentThatWay() {
        AtomicInteger published = new AtomicInteger();
        AgentDefinition supervisor = supervisor(careful(published));
        String confirmTool = "\"tools\":[{\"name\":\"confirm_changes\",\"description\":\"Ask the user\","
                + "\"parameters\":{\"type\":\"object\",\"properties\":{}}}]";
        model.answer(delegates("c1", "Publish otters"))
                .answer(new ModelEvent.ToolCallCompleted(0, "p1", "publish", "{\"title\":\"Otters\"}"),
                        new ModelEvent.Completed(null, FinishReason.STOP));
        RunAgentInput input = RunFixtures.input("""
                {"threadId":"t","runId":"r","messages":[{"id":"u1","role":"user","content":"Publish"}],%s}"""
                .formatted(confirmTool));
        List<AgUiEvent> first = runner.run(supervisor, RunFixtures.newThread(input, journal), new StopSwitch(),
                new RunInbox(), Context.root()).collect().asList().await().atMost(Duration.ofSeconds(10));
        EventStreamVerifier.verify(RunFixtures.json(first), "t", "r");

        String id = of(first, AgUiEvent.SubagentStarted.class).get(0).subagentRunId();
        AgUiEvent.ToolCallStart confirm = of(first, AgUiEvent.ToolCallStart.class).stream()
                .filter(start -> start.toolCallName().equals("confirm_changes")).findFirst().orElseThrow();
        assertEquals(id, confirm.subagentRunId(), "the sub-agent asks");
        assertEquals(new RunOutcome.Success(List.of(confirm.toolCallId())),
                ((AgUiEvent.RunFinished) first.get(first.size() - 1)).outcome());
        assertEquals(List.of(confirm.toolCallId()), of(first, AgUiEvent.SubagentFinished.class).get(0).outcome()
                .interruptIds());

        model.answer(says("Published.")).answer(says("Done."));
        RunAgentInput next = RunFixtures.input("""
                {"threadId":"t","runId":"r2","messages":[],%s}""".formatted(confirmTool));
        Message answer = new Message.Tool("a1", new MessageContent.Text("{\"accepted\":true}"), confirm.toolCallId(),
                null, null, null);
        List<AgUiEvent> events = runner.run(supervisor, RunFixtures.storedThread(next,
                        journal.commits.get(journal.commits.size() - 1), List.of(answer), true), new StopSwitch(),
                new RunInbox(), Context.root()).collect().asList().await().atMost(Duration.ofSeconds(10));
        EventStreamVerifier.verify(RunFixtures.json(events), "t", "r2");

        assertEquals(1, published.get());
        assertEquals(List.of("p1", "c1"), of(events, AgUiEvent.ToolCallResult.class).stream()
                .map(AgUiEvent.ToolCallResult::toolCallId).toList());
        assertEquals(RunOutcome.SUCCESS, ((AgUiEvent.RunFinished) events.get(events.size() - 1)).outcome());
        assertTrue(model.requests.get(2).messages().stream().noneMatch(m -> m.toString().contains("confirm_changes")),
                "the sub-agent's LLM never sees the question: " + model.requests.get(2).messages());
    }

    @Test
    void anAnswerToAnInterruptTheThreadNeverHadChangesNothing() {
        AtomicInteger published = new AtomicInteger();
        AgentDefinition supervisor = supervisor(careful(published));
        askedToPublish(supervisor);
        int kept = journal.checkpoints.size();

        List<AgUiEvent> events = resume(supervisor, """
                {"interruptId":"confirm_nope","status":"resolved","payload":{"approved":true}}""");

        assertEquals("unknown_interrupt", ((AgUiEvent.RunError) events.get(events.size() - 1)).code());
        assertEquals(0, published.get());
        assertEquals(kept, journal.checkpoints.size(), "nothing is kept: the thread still waits");
    }

    @Test
    void aSubagentsSubagentThatWouldAskFailsBeforeTheUserIsAsked() {
        AtomicInteger published = new AtomicInteger();
        AgentDefinition middle = AgentDefinition.builder("editor").stateless().subagent(careful(published)).build();
        model.answer(new ModelEvent.ToolCallCompleted(0, "c1", "editor", "{\"task\":\"Edit\"}"),
                        new ModelEvent.Completed(null, FinishReason.STOP))
                .answer(delegates("c2", "Publish otters"))
                .answer(new ModelEvent.ToolCallCompleted(0, "p1", "publish", "{}"),
                        new ModelEvent.Completed(null, FinishReason.STOP))
                .answer(says("It could not publish."))
                .answer(says("Not published."));

        List<AgUiEvent> events = run(supervisor(middle));

        assertEquals("subagent_interrupted", of(events, AgUiEvent.SubagentError.class).get(0).code());
        assertEquals(0, published.get());
        assertEquals(List.of("c2", "c1"), of(events, AgUiEvent.ToolCallResult.class).stream()
                .map(AgUiEvent.ToolCallResult::toolCallId).toList());
        assertEquals(RunOutcome.SUCCESS, ((AgUiEvent.RunFinished) events.get(events.size() - 1)).outcome());
    }
}
