package dev.aguistate.run;

import dev.aguistate.run.tracing.RunTrace;
import dev.aguistate.run.request.RoundKind;
import dev.aguistate.run.request.ChatRequests;
import dev.aguistate.run.request.ConversationMapper;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.MessageContent;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.protocol.Tool;
import dev.aguistate.protocol.ToolCall;
import dev.aguistate.state.StartingState;
import dev.aguistate.state.StateLayers;
import dev.aguistate.state.State;
import dev.aguistate.state.StateWriteException;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolContext;
import dev.aguistate.tools.ToolOutcome;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Everything one run owns, and the steps {@link AgentRunner} takes it through. One instance per request, never
 * shared between runs; its jobs are done by per-run collaborators: {@link ClientMirror} (what the client holds),
 * {@link StreamTranslation} (one round's model events as AG-UI events), {@link ConfirmationFlow},
 * {@link ChatRequests} (the LLM request of a round), {@link ToolEffects} (what tools do to the state),
 * {@link Transcript} and {@link TerminalEvents}.
 *
 * <p><b>Concurrency.</b> A run is driven serially: {@link AgentRunner} calls one step at a time, and each hand-off
 * between the threads a run hops between (LLM callbacks, worker pools, store futures) happens-before the next step,
 * so neither this class nor its collaborators need locks. The one exception is a round's backend tools, which run
 * in parallel while the run waits for them; they reach the state only through {@link ToolEffects}, which has the
 * run's only lock.
 */
final class Run {

    private static final Logger LOG = Logger.getLogger(Run.class);
    private static final ObjectMapper STATE_JSON = new ObjectMapper();

    private final AgentDefinition agent;
    private final RunStart start;
    private final RunAgentInput input;
    private final RunSettings settings;
    private final Transcript transcript;
    private final RunState state;
    private final ClientMirror client;
    private final OfferedTools tools;
    private final ChatRequests requests;
    private final ToolEffects toolEffects;
    private final ConfirmationFlow confirmations;
    private final TerminalEvents ending;
    private final RunTrace trace;
    private int rounds;
    private RoundKind kind;
    private StreamTranslation translation;
    /** The frontend tool calls of the last round, which the client answers after the run. */
    private List<String> clientCalls = List.of();
    /** The state as the client may see it when the current round started, to tell whether its tools changed it. */
    private JsonNode roundStartView;
    /** The span of the round's LLM call, while it streams. */
    private RunTrace.Chat chat;
    /**
     * The sub-agents' runs under way in the round's tools, by {@code subagentRunId}: a stop closes what they left
     * open. Written by the tools' threads.
     */
    private final Map<String, Run> subagents = new ConcurrentHashMap<>();
    /** The calls of the last round of tools whose sub-agents asked the user: they have no result yet. */
    private final Set<String> suspended = new HashSet<>();
    /** Where a sub-agent's question names the call its run waits in. */
    private static final String PARENT_TOOL_CALL = "parentToolCallId";

    /** @throws StateWriteException when the client's state is not an object or breaks the agent's state schema */
    Run(AgentDefinition agent, RunStart start, RunSettings settings, RunTrace trace) {
        this.agent = agent;
        this.trace = trace;
        this.start = start;
        this.input = start.input();
        this.settings = settings;
        this.transcript = new Transcript(start.conversation().history());
        this.tools = OfferedTools.of(agent, input);
        this.confirmations = new ConfirmationFlow(agent, start, tools.clientConfirms(), settings.confirmationExpiry());
        if (!agent.hasState()) {
            StartingState.requireObject(input.state());
        }
        this.state = new RunState(agent.hasState() ? startingState() : null);
        // a client that sent no state holds none: an empty object, like @ag-ui/client's default
        this.client = new ClientMirror(input.state() == null ? JsonNodeFactory.instance.objectNode() : input.state());
        this.requests = new ChatRequests(agent, settings.statePrompt(), settings.contextWindow(),
                settings.budgetFor(agent), start.summary(), input.context(), tools.specifications());
        this.toolEffects = new ToolEffects(state, client, settings.deltaPacing().interval());
        this.ending = new TerminalEvents(input.threadId(), input.runId(), settings.provider());
        List<String> fileHandles = ConversationMapper.fileHandleParts(start.conversation().added());
        if (!fileHandles.isEmpty()) {
            LOG.warnf("threadId=%s runId=%s: the LLM does not get %s: file handles cannot be passed on the OpenAI wire",
                    input.threadId(), input.runId(), fileHandles);
        }
    }

    private State startingState() {
        StartingState starting = StartingState.of(start.storedState(), input.state(), agent.state(),
                agent.serverOwnedKeys(), confirmations.proposedKeys());
        starting.ignoredKeys().forEach(key -> LOG.infof(
                "threadId=%s: ignored the client's value for server-owned key %s", input.threadId(), key));
        return starting.state();
    }

    String threadId() {
        return input.threadId();
    }

    String runId() {
        return input.runId();
    }

    AgentDefinition agent() {
        return agent;
    }

    RunTrace trace() {
        return trace;
    }

    /**
     * RUN_STARTED; the conversation if the client's list differs from it (a reload, a client that sent only its new
     * messages, a regenerate); then the state as the server sees it if that differs from what the client sent —
     * unless the thread waits for answers: the client shows the proposal until the answers' snapshot settles it.
     */
    List<AgUiEvent> started() {
        List<AgUiEvent> out = new ArrayList<>(3);
        out.add(new AgUiEvent.RunStarted(input.threadId(), input.runId(), AgUiEvent.PROTOCOL_VERSION,
                input.parentRunId(), null, trace.startedMetadata()));
        switch (start.conversation().restate()) {
            case NONE -> { }
            case SNAPSHOT -> out.add(new AgUiEvent.MessagesSnapshot(start.conversation().history()));
            case CLEAR_THEN_SNAPSHOT -> {
                out.add(new AgUiEvent.MessagesSnapshot(List.of()));
                out.add(new AgUiEvent.MessagesSnapshot(start.conversation().history()));
            }
        }
        if (!confirmations.waiting() && state.kept()) {
            client.snapshotIfDifferent(state.clientView()).ifPresent(out::add);
        }
        return out;
    }

    /**
     * Whether the model has anything to answer: a new user or tool message, a regenerate, or answers to the
     * thread's interrupts. A run without (a reload, a stale tab) restates the thread and calls no LLM.
     */
    boolean hasSomethingToAnswer() {
        return start.conversation().answer() || !input.resume().isEmpty();
    }

    /** @throws RunFailure when the request's answers to the thread's interrupts are incomplete or invalid */
    Confirmations.Resumption resumption() {
        return confirmations.resumption();
    }

    /**
     * A resume that was carried out before: the thread as it is (what {@link #started()} did not already send), so
     * a client that lost the answer catches up.
     */
    List<AgUiEvent> repeatedResume() {
        List<AgUiEvent> out = new ArrayList<>(2);
        if (start.conversation().restate() == Conversation.Restatement.NONE) {
            out.add(new AgUiEvent.MessagesSnapshot(transcript.messages()));
        }
        if (state.kept()) {
            client.snapshotIfDifferent(state.clientView()).ifPresent(out::add);
        }
        return out;
    }

    /**
     * The calls the answers let run: the approved ones of this run's own, then one per sub-agent run that asked (its
     * call of this run's, which waits for it), which goes on with the answers to its questions.
     *
     * @throws RunFailure when the call a sub-agent run waits in is not in the thread
     */
    List<ServerToolCall> answeredCalls(Confirmations.Answered answers) {
        List<ServerToolCall> calls = new ArrayList<>(confirmations.approvedCalls(answers.of(ownAnswers())));
        for (String subagentRunId : answers.subagentRuns()) {
            if (subagentRunId.equals(ownAnswers())) {
                continue; // a sub-agent's run resumed: the answers are to its own questions
            }
            Confirmations.Answered its = answers.of(subagentRunId);
            String callId = its.decisions().get(0).interrupt().metadata().path(PARENT_TOOL_CALL).asText();
            ToolCall call = transcript.messages().stream()
                    .filter(m -> m instanceof Message.Assistant a && a.subagentRunId() == null && a.toolCalls() != null)
                    .flatMap(m -> ((Message.Assistant) m).toolCalls().stream())
                    .filter(c -> c.id().equals(callId)).findFirst()
                    .orElseThrow(() -> new RunFailure("thread_inconsistent", "The call that sub-agent run "
                            + subagentRunId + " waits in is not in the stored thread."));
            AgentDefinition subagent = agent.subagent(call.function().name()).orElseThrow(() -> new RunFailure(
                    "thread_inconsistent", "The agent " + agent.name() + " has no sub-agent "
                            + call.function().name() + " any more, which sub-agent run " + subagentRunId + " was."));
            calls.add(new ServerToolCall(call.id(), call.function().name(), call.function().arguments(), null,
                    subagent, new ServerToolCall.SuspendedSubagent(subagentRunId, its)));
        }
        return calls;
    }

    /** Which of a request's answers are this run's own: a sub-agent run's attributed to it, the thread's none. */
    private String ownAnswers() {
        return isSubagent() ? runId() : null;
    }

    /**
     * Records the answers: each waiting call gets its result (the tool's, after what the user approved, or the
     * declined message), then the client gets the authoritative state, which restores what a declined proposal
     * replaced on its screen.
     *
     * A sub-agent's call that waited gets the answer of its run, unless that asked again.
     *
     * @param answered the calls of {@link #answeredCalls} and ({@code outcomes}) their outcomes, in their order
     * @throws RunFailure when an approved tool failed and the agent raises on tool failure
     */
    List<AgUiEvent> recordAnswers(Confirmations.Answered answers, List<ServerToolCall> answered,
                                  List<ToolOutcome> outcomes) {
        List<AgUiEvent> out = new ArrayList<>(answers.decisions().size() + 1);
        Iterator<ServerToolCall> calls = answered.iterator();
        Iterator<ToolOutcome> results = outcomes.iterator();
        for (Confirmations.Decision decision : answers.of(ownAnswers()).decisions()) {
            MessageContent content = decision.approved()
                    ? confirmations.approvedResult(settle(calls.next(), results.next()))
                    : confirmations.declinedResult();
            out.add(transcript.addResult(decision.toolCallId(), content));
        }
        while (calls.hasNext()) {
            ServerToolCall call = calls.next();
            ToolOutcome outcome = results.next();
            if (!suspended.contains(call.id())) {
                out.add(transcript.addResult(call.id(), settle(call, outcome).content()));
            }
        }
        confirmations.answered(answers);
        if (state.kept()) {
            out.add(client.snapshot(state.clientView()));
        }
        return out;
    }

    /**
     * Adds the messages steered into the run at a round boundary, those the conversation does not hold already (a
     * client that sent one twice), and returns the {@code MESSAGES_SNAPSHOT} that shows them: none when none is new.
     */
    List<AgUiEvent> steered(List<Message.User> messages) {
        int added = 0;
        for (Message.User message : messages) {
            if (transcript.messages().stream().noneMatch(held -> held.id().equals(message.id()))) {
                transcript.add(message);
                added++;
            }
        }
        if (added == 0) {
            return List.of();
        }
        LOG.infof("threadId=%s runId=%s: %d steered message(s) join the run", threadId(), runId(), added);
        return List.of(new AgUiEvent.MessagesSnapshot(transcript.messages()));
    }

    /** Whether the run may make another LLM call. */
    boolean hasRoundLeft() {
        return rounds < settings.maxRounds();
    }

    /** Starts the next LLM call; false when the run has used all its rounds. */
    boolean startRound() {
        if (!hasRoundLeft()) {
            return false;
        }
        rounds++;
        kind = RoundKind.of(agent, rounds);
        roundStartView = null;
        if (state.kept()) {
            client.holds(); // settles the previous round's prediction before it is replaced
            roundStartView = state.clientView();
        }
        translation = StreamTranslation.start(kind, agent, roundStartView, client, ending,
                start.options().predictedStateDeltas() ? settings.deltaPacing() : null);
        return true;
    }

    RoundKind roundKind() {
        return kind;
    }

    /** The round's LLM request; its span starts with it. */
    ChatRequest chatRequest() {
        ChatRequest request = requests.forRound(kind, state.kept() ? state.current() : null, transcript.messages(),
                start.messageTimes());
        chat = trace.chat(settings.model(), request);
        return request;
    }

    /** The round's LLM call reported how it completed. */
    void completed(ModelEvent.Completed completed) {
        chat.completed(completed);
    }

    /** The round's LLM call ended: failed, cancelled, or with its answer. */
    void chatEnded(Throwable failure, boolean cancelled) {
        chat.ended(failure, cancelled, translation.round()::answer);
        chat = null;
    }

    /** Adds the AG-UI events of one model event to {@code out}. */
    void translate(ModelEvent event, List<AgUiEvent> out) {
        if (event instanceof ModelEvent.Completed completed && completed.usage() != null
                && completed.usage().inputTokens() != null) {
            requests.reported(completed.usage().inputTokens());
        }
        translation.translate(event, out);
    }

    /**
     * Ends a {@link RoundKind#STATE_OUTPUT} round: the LLM's JSON becomes the state and the client gets it as a
     * snapshot.
     *
     * @throws RunFailure when the output is not a JSON object that fits the state schema
     */
    List<AgUiEvent> applyStructuredState() {
        try {
            state.replace(new State(agent.state(), STATE_JSON.readTree(translation.round().text.toString())));
        } catch (JsonProcessingException e) {
            throw RunFailure.invalidStateOutput("it is not JSON");
        } catch (StateWriteException e) {
            throw RunFailure.invalidStateOutput(e.getMessage());
        }
        return List.of(client.snapshot(state.clientView()));
    }

    /** Ends the round: records the assistant turn and sorts the tool calls it made. */
    OfferedTools.RoundCalls finishRound() {
        Round round = translation.round();
        transcript.addAssistantTurn(round);
        OfferedTools.RoundCalls calls = tools.sort(round.toolCalls.values());
        clientCalls = calls.clientCalls();
        client.propose(calls.toConfirm().stream().flatMap(c -> agent.stateKeysOf(c.name()).stream())
                .collect(Collectors.toSet()));
        return calls;
    }

    List<AgUiEvent> askConfirmation(List<ServerToolCall> calls) {
        return confirmations.ask(calls, transcript);
    }

    /** The values a tool takes from state. Safe to call from parallel tool threads. */
    Map<String, JsonNode> toolInputs(BackendTool tool) {
        return toolEffects.inputsFor(tool);
    }

    /**
     * A round's running tools' context; {@code emit} receives the STATE_DELTA of each live write and the activity
     * events.
     */
    ToolEffects.RoundEffects toolContext(Consumer<AgUiEvent> emit) {
        return toolEffects.context(emit);
    }

    /** One call's context: the round's view of the state and its activities, the run's caller, the call's span. */
    ToolContext callContext(ToolEffects.RoundEffects round, ServerToolCall call, RunTrace.Tool span) {
        return new CallContext(round, call.id(), Optional.ofNullable(start.credential()), span.context());
    }

    /**
     * What a sub-agent's run for {@code call} starts from: the thread and the caller of this run, the task as its
     * only message, no client tools and no stored state (its state, if it keeps one, starts from its schema and is
     * its own: neither the client nor the store sees it), and no journal: its messages are kept with this run's
     * round ({@link #keepSubagentMessages}).
     */
    RunStart delegation(String subagentRunId, String task) {
        return delegation(subagentRunId, task, List.of());
    }

    /**
     * What a sub-agent's run that asked the user starts from when its parent's next run carries the answers: the
     * task, then its messages as the thread kept them (those attributed to it), where it stopped.
     */
    RunStart resumedDelegation(String subagentRunId, String task) {
        return delegation(subagentRunId, task, transcript.messages().stream()
                .filter(message -> subagentRunId.equals(message.subagentRunId()))
                .map(Run::unattributed).toList());
    }

    /**
     * A sub-agent's run has no page of its own: it is offered no page tools. It asks the user in the form its
     * parent's client chose ({@value ToolCall#CONFIRM_CHANGES} or the interrupt), unless it is a sub-agent's
     * sub-agent, which cannot ask (its parent fails it, {@code subagent_interrupted}).
     */
    private RunStart delegation(String subagentRunId, String task, List<Message> before) {
        Message.User message = new Message.User(UUID.randomUUID().toString(), task);
        List<Message> history = new ArrayList<>(before.size() + 1);
        history.add(message);
        history.addAll(before);
        List<Tool> confirming = isSubagent() ? List.of() : input.tools().stream()
                .filter(tool -> ToolCall.CONFIRM_CHANGES.equals(tool.name())).toList();
        RunAgentInput delegated = new RunAgentInput(input.threadId(), subagentRunId, input.protocolVersion(),
                input.runId(), JsonNodeFactory.instance.objectNode(), history, confirming, List.of(), null,
                List.of());
        return new RunStart(delegated, start.options(), StateLayers.empty(), List.of(),
                new Conversation(history, List.of(message), Conversation.Restatement.NONE, true), Map.of(),
                ThreadInterrupts.NONE, SUBAGENT_JOURNAL, null, start.credential());
    }

    /** A sub-agent's message as its own run holds it: its LLM reads only messages that carry no attribution. */
    private static Message unattributed(Message message) {
        ObjectNode json = AgUiJson.mapper().valueToTree(message);
        json.remove("subagentRunId");
        return AgUiJson.mapper().convertValue(json, Message.class);
    }

    /** A sub-agent's progress is its parent's: kept with the parent's round of tools. */
    private static final RunJournal SUBAGENT_JOURNAL = new RunJournal() {
        @Override
        public Uni<Void> keep(RunProgress progress) {
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> end(RunProgress progress, RunEnd end) {
            return Uni.createFrom().voidItem();
        }
    };

    /** What a sub-agent's run answered: the text of its last assistant message (empty when it said nothing). */
    String answer() {
        List<Message> messages = transcript.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof Message.Assistant assistant && assistant.subagentRunId() == null
                    && assistant.content() != null) {
                return assistant.content();
            }
        }
        return "";
    }

    /**
     * The messages a sub-agent's run added to what it started from, each carrying its {@code subagentRunId}; a
     * resumed run's results go next to the calls they answer, inside what it started from.
     */
    private List<Message> subagentMessages() {
        Set<String> before = start.conversation().history().stream().map(Message::id).collect(Collectors.toSet());
        return transcript.messages().stream().filter(message -> !before.contains(message.id()))
                .map(message -> message.attributedTo(runId())).toList();
    }

    /** Whether this is a sub-agent's run ({@link #delegation}), which has no thread of its own to wait in. */
    boolean isSubagent() {
        return start.journal() == SUBAGENT_JOURNAL;
    }

    /**
     * What the round's sub-agents left: their messages, kept in the conversation after the round's results (where
     * the client has them too: it puts a call's result right after the call), in call order; their usage, counted
     * as this run's.
     */
    void keepDelegations(Map<String, ToolEffects.Delegation> delegations) {
        suspended.clear();
        delegations.forEach((toolCallId, delegation) -> {
            delegation.messages().forEach(transcript::add);
            delegation.usage().forEach(ending::countUsage);
            if (!delegation.asked().isEmpty()) {
                suspended.add(toolCallId);
                confirmations.adopt(delegation.asked());
            }
        });
    }

    /**
     * Whether a sub-agent of the last round of tools asked the user: its call has no result yet, so the run asks
     * too, and ends.
     */
    boolean waitsForSubagents() {
        return !suspended.isEmpty();
    }

    /** Whether this run (a sub-agent's) asked the user, and is suspended until the answers come. */
    boolean asked() {
        return !confirmations.opened().isEmpty();
    }

    /**
     * What the run left its parent, when it is a sub-agent's called by {@code parentToolCallId}: see
     * {@link ToolEffects.Delegation}. Its questions name it and the call ({@code metadata.parentToolCallId}), where
     * its parent's next run resumes it.
     */
    ToolEffects.Delegation delegation(String parentToolCallId) {
        JsonNode about = JsonNodeFactory.instance.objectNode().put(PARENT_TOOL_CALL, parentToolCallId);
        return new ToolEffects.Delegation(subagentMessages(), ending.usages(),
                confirmations.opened().stream().map(asked -> asked.askedBy(runId(), about)).toList());
    }

    /**
     * The round's activity messages as they ended, kept in the conversation after the round's results (where they
     * stay on reload; a client that shows them live has them after the call instead, which no later request
     * minds, see {@code session.Reconciliation}).
     */
    void keepActivities(List<Message> activities) {
        activities.forEach(transcript::add);
    }

    /**
     * Records the server-side tool results: their state outputs are merged (in call order), the transcript gets
     * the results, and the client gets their {@code TOOL_CALL_RESULT}s, then one {@code STATE_SNAPSHOT} if the
     * tools changed the state (proposals awaiting confirmation are not the tools' changes: they stay on the
     * client's screen).
     *
     * @throws RunFailure when a tool failed and the agent raises on tool failure
     */
    List<AgUiEvent> recordResults(List<ServerToolCall> calls, List<ToolOutcome> outcomes) {
        List<AgUiEvent> out = new ArrayList<>(calls.size() + 1);
        for (int i = 0; i < calls.size(); i++) {
            if (!suspended.contains(calls.get(i).id())) { // a sub-agent's that asked the user: it waits with it
                out.add(transcript.addResult(calls.get(i).id(), settle(calls.get(i), outcomes.get(i)).content()));
            }
        }
        if (state.kept()) {
            JsonNode view = client.withProposals(state.clientView());
            if (!view.equals(client.withProposals(roundStartView)) || !view.equals(client.holds())) {
                out.add(client.snapshot(view));
            }
        }
        return out;
    }

    /** The outcome with its state outputs merged. @throws RunFailure when it failed and the agent raises */
    private ToolOutcome settle(ServerToolCall call, ToolOutcome outcome) {
        ToolOutcome merged = toolEffects.mergeOutputs(call, outcome);
        if (merged instanceof ToolOutcome.Failure failure && agent.raiseOnToolFailure()) {
            throw RunFailure.toolFailed(failure.failure().getMessage());
        }
        return merged;
    }

    /** What the run has completed: its state, the whole conversation, what the thread waits for. */
    private RunProgress progress() {
        return new RunProgress(keptState(), transcript.messages(),
                confirmations.interruptsAfter());
    }

    /** The state to keep: null when the agent keeps none (the stored state then stays as it is). */
    private JsonNode keptState() {
        return state.kept() ? state.current().toJson() : null;
    }

    /** Keeps what the run has completed so far: the request's messages at its start, then each round of tools. */
    Uni<Void> checkpoint() {
        return start.journal().keep(progress());
    }

    /** Keeps the run's outcome (the final state and the whole conversation) before it is reported finished. */
    Uni<Void> commit() {
        return start.journal().end(progress(), confirmations.opensInterrupts() ? RunEnd.INTERRUPTED : RunEnd.SUCCESS);
    }

    /**
     * Keeps what a run with nothing to answer brought: its new messages (a client's own assistant or system
     * message), if any, with the state; the thread's interrupts stay as they were. Nothing is written otherwise.
     */
    Uni<Void> commitUnanswered() {
        if (start.conversation().added().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return start.journal().end(new RunProgress(keptState(), transcript.messages(), start.interrupts()),
                RunEnd.SUCCESS);
    }

    /**
     * RUN_FINISHED of a run with nothing to answer: still waiting for what the thread waited for, the interrupts
     * it has open or the tool calls left for the client.
     */
    AgUiEvent finishedUnanswered() {
        return ending.finished(confirmations.stillWaiting(Message.openToolCalls(transcript.messages())));
    }

    /** RUN_FINISHED, with the interrupts the run opened, or the tool calls it left the client, as its outcome. */
    AgUiEvent finished() {
        return ending.finished(confirmations.outcome(clientCalls));
    }

    /**
     * The one RUN_ERROR of a failed run, once the thread has recorded how the run ended (what it completed before
     * stays kept). When the failure was the store's own, it is not asked again.
     */
    Uni<AgUiEvent> failed(Throwable error) {
        AgUiEvent event = ending.failed(error);
        trace.failed(((AgUiEvent.RunError) event).code());
        if (error instanceof RunFailure failure && failure.fromStore()) {
            return Uni.createFrom().item(event);
        }
        return endWithout(new RunEnd(((AgUiEvent.RunError) event).code())).replaceWith(event);
    }

    /**
     * The end of a stopped run, once the thread has recorded that it was cancelled: what the cut round left open
     * is closed (a valid stream never finishes with an open message), then RUN_FINISHED {@code cancelled}.
     */
    Uni<List<AgUiEvent>> cancelled() {
        List<AgUiEvent> out = new ArrayList<>(3);
        closeOpen(out);
        out.add(ending.finished(RunOutcome.CANCELLED));
        return endWithout(RunEnd.CANCELLED).replaceWith(out);
    }

    /**
     * Closes what a stop left open: the cut round's message, tool call or reasoning, and each sub-agent's under way
     * (what it left open, attributed to it, then its {@code SUBAGENT_ERROR cancelled}).
     */
    private void closeOpen(List<AgUiEvent> out) {
        if (translation != null) {
            translation.round().close(out);
        }
        subagents.forEach((id, child) -> {
            List<AgUiEvent> closed = new ArrayList<>(2);
            child.closeOpen(closed);
            closed.forEach(event -> out.add(event.attributedTo(id)));
            out.add(new AgUiEvent.SubagentError(id, "The run was stopped.", "cancelled"));
        });
    }

    /** A sub-agent's run for one of the round's calls started; it is closed on a stop until it {@link #ended}. */
    void subagentStarted(Run child) {
        subagents.put(child.runId(), child);
    }

    /** A sub-agent's run ended (or was stopped). */
    void subagentEnded(Run child) {
        subagents.remove(child.runId());
    }

    /**
     * Records how the run ended, keeping nothing beyond its last checkpoint: a round cut short is not kept. A store
     * that fails now does not change how the run is reported: the thread then still names the run as active, which
     * a later connect reports as lost.
     */
    private Uni<Void> endWithout(RunEnd end) {
        return start.journal().end(null, end).onFailure().recoverWithItem(failure -> {
            LOG.warnf("threadId=%s runId=%s: recording how the run ended failed: %s", threadId(), runId(),
                    failure.toString());
            return null;
        });
    }
}
