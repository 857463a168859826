package dev.aguistate.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.ModelFailure;
import dev.aguistate.llm.ModelUsage;
import dev.aguistate.llm.ToolSchemas;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.PatchOperation;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.protocol.TokenUsage;
import dev.aguistate.protocol.Tool;
import dev.aguistate.protocol.ToolCall;
import dev.aguistate.state.PredictiveMapping;
import dev.aguistate.state.PredictiveState;
import dev.aguistate.state.State;
import dev.aguistate.state.StateKey;
import dev.aguistate.state.StateSchema;
import dev.aguistate.state.StatePatches;
import dev.aguistate.state.StateScopes;
import dev.aguistate.state.StatePrompt;
import dev.aguistate.state.StateWriteException;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolContext;
import dev.aguistate.tools.ToolFailure;
import dev.aguistate.tools.ToolOutcome;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import io.smallrye.mutiny.Uni;
import org.jboss.logging.Logger;

/**
 * Everything one run owns: the conversation so far, the tools offered, the round in progress and the
 * translation of model output into AG-UI events. One instance per request, never shared; its methods are
 * called in stream order (synchronized only to publish state safely across the threads a run hops between).
 */
final class Run {

    private static final Logger LOG = Logger.getLogger(Run.class);
    private static final ObjectMapper STATE_JSON = new ObjectMapper();
    static final String PREDICT_STATE = "PredictState";
    /** The pseudo tool whose "arguments" are a two-phase agent's structured state output, for predictions. */
    private static final String STRUCTURED_STATE = "structured_state";
    private static final String STATE_PHASE_PROMPT = "Respond with the complete new state as a JSON object that "
            + "matches the given schema, keeping what the user did not ask to change. Respond with the JSON only.";
    /** The C# AG-UI sample's second call. */
    static final String SUMMARY_PROMPT = "Please provide a concise summary of the state changes in at most two sentences.";

    private final AgentDefinition agent;
    private final RunStart start;
    private final RunAgentInput input;
    /** The AG-UI conversation: the history the run started from plus every message it adds, for the journal. */
    private final List<Message> transcript;
    private final String provider;
    /** Which of the transcript's messages the LLM sees. */
    private final ContextWindow contextWindow;
    private final List<ToolSpecification> toolSpecifications = new ArrayList<>();
    private final Set<String> frontendTools;
    /** The client declared {@value Confirmations#CONFIRM_CHANGES}: confirmations take the client-tool form. */
    private final boolean clientConfirms;
    private final Duration confirmationExpiry;
    /** The stored tool calls the thread's open interrupts ask about, by call id. */
    private final Map<String, ToolCall> waitingCalls;
    private Confirmations.Resumption resumption;
    /** Interrupts this run opened, and the ids of those it answered. */
    private final List<Interrupt> opened = new ArrayList<>();
    private List<String> answered = List.of();
    /** State keys the current round's calls awaiting confirmation predict: the client keeps seeing the proposal. */
    private Set<String> proposedKeys = Set.of();
    private final List<ModelUsage> usages = new ArrayList<>();
    private State state;
    private final StatePrompt statePrompt;
    private final long deltaIntervalNanos;
    /** What the client holds now: the state it sent, then every snapshot and delta we sent; see {@link #clientHolds()}. */
    private JsonNode clientHolds;
    /**
     * The client holds the current prediction's view. It is read from the prediction only when needed, so that a
     * delta per argument chunk does not cost a copy of the whole state.
     */
    private boolean clientHoldsPrediction;
    /** The state when the current round started, to tell whether the round's tools changed it. */
    private JsonNode roundStartState;
    private PredictiveState predictive;
    private boolean predictStateSent;
    private long lastDeltaNanos;
    private int rounds;
    private Round round;

    /** @throws StateWriteException when the client's or the stored state does not fit the agent's state schema */
    Run(AgentDefinition agent, RunStart start, String provider, StatePrompt statePrompt, Duration deltaInterval,
        ContextWindow contextWindow, Duration confirmationExpiry) {
        this.agent = agent;
        this.start = start;
        this.input = start.input();
        this.provider = provider;
        this.statePrompt = statePrompt;
        this.deltaIntervalNanos = deltaInterval.toNanos();
        this.waitingCalls = Confirmations.waitingCalls(start.interrupts(), start.storedHistory());
        this.state = agent.hasState() ? new State(agent.state(), startingState(start, agent,
                stateKeysOf(waitingCalls.values().stream().map(c -> c.function().name()).toList()))) : null;
        this.confirmationExpiry = confirmationExpiry;
        this.clientConfirms = input.tools().stream().anyMatch(t -> Confirmations.CONFIRM_CHANGES.equals(t.name()));
        this.clientHolds = input.state();
        this.transcript = new ArrayList<>(start.history());
        this.contextWindow = contextWindow;
        agent.tools().values().forEach(t -> toolSpecifications.add(
                ToolSchemas.specification(t.name(), t.description(), t.visibleParameters())));
        this.frontendTools = input.tools().stream()
                .map(Tool::name)
                .filter(name -> !Confirmations.CONFIRM_CHANGES.equals(name))
                .filter(name -> {
                    boolean shadowed = agent.tools().containsKey(name);
                    if (shadowed) {
                        LOG.warnf("threadId=%s runId=%s: client tool %s is shadowed by the agent's own tool",
                                input.threadId(), input.runId(), name);
                    }
                    return !shadowed;
                })
                .collect(Collectors.toUnmodifiableSet());
        input.tools().stream().filter(t -> frontendTools.contains(t.name())).forEach(t -> toolSpecifications.add(
                ToolSchemas.specification(t.name(), t.description(), t.parameters())));
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

    /**
     * The stored state with the client's keys laid over it: the client's edits win, except on keys only the server
     * may change ({@code app:} and the agent's server-owned keys), that never leave a run ({@code temp:}), or that
     * hold a proposal still awaiting the user's answer ({@code proposed}: the client shows the proposal, the server
     * keeps what was there before), which are ignored.
     */
    private static JsonNode startingState(RunStart start, AgentDefinition agent, Set<String> proposed) {
        StateSchema schema = agent.state();
        JsonNode client = start.input().state();
        boolean stored = start.storedState() != null && start.storedState().isObject();
        if (!stored && !(client instanceof ObjectNode)) {
            return client;
        }
        ObjectNode merged = stored ? start.storedState().deepCopy() : JsonNodeFactory.instance.objectNode();
        if (schema != null && !schema.freeForm()) {
            // stored shared keys may belong to other agents' schemas
            merged.retain(schema.keys().stream().map(StateKey::name).toList());
        }
        ObjectNode clientState = client instanceof ObjectNode object ? object : JsonNodeFactory.instance.objectNode();
        clientState.fields().forEachRemaining(e -> {
            if (proposed.contains(e.getKey())) {
                return;
            }
            if (agent.serverOwns(e.getKey()) || StateScopes.isTemp(e.getKey())) {
                if (!e.getValue().equals(merged.get(e.getKey()))) {
                    LOG.infof("threadId=%s: ignored the client's value for server-owned key %s",
                            start.input().threadId(), e.getKey());
                }
            } else {
                merged.set(e.getKey(), e.getValue());
            }
        });
        return merged;
    }

    /** The state as the client may see it: without {@code temp:} keys. */
    private JsonNode clientView() {
        return StateScopes.visible(state.toJson());
    }

    /**
     * RUN_STARTED; the stored history if the client reloaded and sent none; then the state as the server sees it
     * if that differs from what the client sent.
     */
    synchronized List<AgUiEvent> started() {
        List<AgUiEvent> out = new ArrayList<>(3);
        out.add(new AgUiEvent.RunStarted(input.threadId(), input.runId(), input.parentRunId(), null));
        if (start.hydrates()) {
            out.add(new AgUiEvent.MessagesSnapshot(start.storedHistory()));
        }
        // while the thread waits for answers the client shows the proposal; the answers' snapshot settles it
        if (waitingCalls.isEmpty()) {
            snapshotIfTheClientDiffers(out);
        }
        return out;
    }

    /** A STATE_SNAPSHOT when the state as the server sees it differs from what the client holds. */
    private void snapshotIfTheClientDiffers(List<AgUiEvent> out) {
        if (state != null) {
            JsonNode view = clientView();
            if (!view.equals(clientHolds())) {
                out.add(snapshot(view));
            }
        }
    }

    /**
     * How this run answers the interrupts its thread waits for.
     *
     * @throws RunFailure when the request's answers are incomplete or invalid
     */
    synchronized Confirmations.Resumption resumption() {
        if (resumption == null) {
            resumption = Confirmations.resolve(start.interrupts(), input, start.storedHistory(), waitingCalls,
                    Instant.now());
        }
        return resumption;
    }

    /**
     * A resume that was carried out before: the thread as it is (what {@link #started()} did not already send), so
     * a client that lost the answer catches up.
     */
    synchronized List<AgUiEvent> repeatedResume() {
        List<AgUiEvent> out = new ArrayList<>(2);
        if (!start.hydrates()) {
            out.add(new AgUiEvent.MessagesSnapshot(List.copyOf(transcript)));
        }
        snapshotIfTheClientDiffers(out);
        return out;
    }

    /** The approved calls, to run with the arguments the user approved. */
    synchronized List<ServerToolCall> approvedCalls(Confirmations.Answered answers) {
        return answers.decisions().stream().filter(Confirmations.Decision::approved)
                .map(d -> new ServerToolCall(d.toolCallId(), d.toolName(), d.arguments(),
                        agent.tool(d.toolName()).orElse(null)))
                .toList();
    }

    /**
     * Records the answers: each waiting call gets its result (the tool's, after what the user approved, or the
     * declined message), then the client gets the authoritative state, which restores what a declined proposal
     * replaced on its screen.
     *
     * @param outcomes the outcomes of {@link #approvedCalls}, in their order
     * @throws RunFailure when an approved tool failed and the agent raises on tool failure
     */
    synchronized List<AgUiEvent> recordAnswers(Confirmations.Answered answers, List<ServerToolCall> approved,
                                               List<ToolOutcome> outcomes) {
        ConfirmationMessages messages = agent.confirmation().messages();
        List<AgUiEvent> out = new ArrayList<>(answers.decisions().size() + 1);
        int next = 0;
        for (Confirmations.Decision decision : answers.decisions()) {
            String content = messages.declined();
            if (decision.approved()) {
                ToolOutcome outcome = toolOutcome(approved.get(next), outcomes.get(next));
                next++;
                content = messages.approved() + "\n" + outcome.content();
            }
            addResult(decision.toolCallId(), content, out);
        }
        answered = answers.interruptIds();
        if (state != null) {
            out.add(snapshot(clientView()));
        }
        return out;
    }

    /** Starts the next LLM call; false when the run has used all its rounds. */
    synchronized boolean startRound(int maxRounds) {
        if (rounds == maxRounds) {
            return false;
        }
        rounds++;
        round = new Round(UUID.randomUUID().toString());
        if (state != null) {
            roundStartState = clientView();
            clientHolds(); // settles the previous round's prediction before it is replaced
            if (statePhase()) {
                predictive = new PredictiveState((ObjectNode) clientView(), agent.state().keys().stream()
                        .map(key -> new PredictiveMapping(key.name(), STRUCTURED_STATE, key.name())).toList());
                predictive.onToolCallStart(STRUCTURED_STATE, STRUCTURED_STATE);
            } else if (!agent.predictive().isEmpty()) {
                predictive = new PredictiveState((ObjectNode) clientView(), agent.predictive());
            }
        }
        return true;
    }

    /** The first call of a two-phase agent: the LLM writes the new state, which streams as a prediction. */
    synchronized boolean statePhase() {
        return agent.twoPhaseState() && rounds == 1;
    }

    /**
     * Ends the state phase: the LLM's JSON becomes the state and the client gets it as a snapshot.
     *
     * @throws RunFailure when the output is not a JSON object that fits the state schema
     */
    synchronized List<AgUiEvent> applyStructuredState() {
        try {
            state = new State(agent.state(), STATE_JSON.readTree(round.text.toString()));
        } catch (JsonProcessingException e) {
            throw RunFailure.invalidStateOutput("it is not JSON");
        } catch (StateWriteException e) {
            throw RunFailure.invalidStateOutput(e.getMessage());
        }
        return List.of(snapshot(clientView()));
    }

    synchronized ChatRequest chatRequest() {
        List<ChatMessage> messages = new ArrayList<>();
        if (!agent.instructions().isBlank()) {
            messages.add(SystemMessage.from(agent.instructions()));
        }
        if (state != null) {
            messages.add(SystemMessage.from(statePrompt.render(state)));
        }
        SystemMessage context = ConversationMapper.contextMessage(input.context());
        if (context != null) {
            messages.add(context);
        }
        messages.addAll(ConversationMapper.toChatMessages(
                contextWindow.select(transcript, start.messageTimes(), Instant.now())));
        if (statePhase()) {
            messages.add(SystemMessage.from(STATE_PHASE_PROMPT));
            return ChatRequest.builder().messages(messages).responseFormat(ResponseFormat.builder()
                    .type(ResponseFormatType.JSON)
                    .jsonSchema(JsonSchema.builder().name("state")
                            .rootElement(JsonRawSchema.from(agent.state().toJsonSchema().toString())).build())
                    .build()).build();
        }
        if (agent.twoPhaseState()) {
            messages.add(SystemMessage.from(SUMMARY_PROMPT));
            return ChatRequest.builder().messages(messages).build();
        }
        return ChatRequest.builder().messages(messages).toolSpecifications(toolSpecifications).build();
    }

    /** The AG-UI events for one model event of the current round. */
    synchronized List<AgUiEvent> translate(ModelEvent event) {
        List<AgUiEvent> out = new ArrayList<>(3);
        if (event instanceof ModelEvent.ReasoningDelta reasoning) {
            round.reason(reasoning.text(), out);
        } else if (event instanceof ModelEvent.TextDelta text && statePhase()) {
            round.text.append(text.text());
            predict(STRUCTURED_STATE, text.text(), out);
        } else if (event instanceof ModelEvent.TextDelta text) {
            round.closeReasoning(out);
            round.text(text.text(), out);
        } else if (event instanceof ModelEvent.ToolCallDelta delta) {
            round.closeReasoning(out);
            ToolCallState call = toolCall(delta.index(), delta.id(), delta.name(), out);
            appendArguments(call, delta.argumentsDelta(), out);
        } else if (event instanceof ModelEvent.ToolCallCompleted complete) {
            round.closeReasoning(out);
            ToolCallState call = toolCall(complete.index(), complete.id(), complete.name(), out);
            appendArguments(call, call.missingArguments(complete.arguments()), out);
            flushPrediction(out);
            call.end(out);
        } else if (event instanceof ModelEvent.Completed completed) {
            if (completed.usage() != null) {
                usages.add(completed.usage());
            }
            flushPrediction(out);
            round.close(out);
        }
        return out;
    }

    /** The round's call at {@code index}, started on first sight (after the PredictState event if it predicts state). */
    private ToolCallState toolCall(int index, String id, String name, List<AgUiEvent> out) {
        ToolCallState existing = round.toolCalls.get(index);
        if (existing != null) {
            return existing;
        }
        boolean predicted = predictive != null && predictive.predicts(name);
        if (predicted && !predictStateSent) {
            predictStateSent = true;
            out.add(new AgUiEvent.Custom(PREDICT_STATE, predictStateValue()));
        }
        ToolCallState call = round.startToolCall(index, id, name, out);
        if (predicted) {
            predictive.onToolCallStart(call.id, name);
        }
        return call;
    }

    private void appendArguments(ToolCallState call, String fragment, List<AgUiEvent> out) {
        if (call.appendArguments(fragment, out)) {
            predict(call.id, fragment, out);
        }
    }

    /** Feeds streamed JSON to the prediction and sends what it gained, at most once per delta interval. */
    private void predict(String streamId, String fragment, List<AgUiEvent> out) {
        if (predictive != null) {
            predictive.onArguments(streamId, fragment);
            if (System.nanoTime() - lastDeltaNanos >= deltaIntervalNanos) {
                flushPrediction(out);
            }
        }
    }

    /** Sends what the prediction gained since the last delta, as one STATE_DELTA. */
    private void flushPrediction(List<AgUiEvent> out) {
        if (predictive != null && predictive.hasPendingChanges()) {
            List<PatchOperation> patch = predictive.drain();
            if (!patch.isEmpty()) {
                out.add(new AgUiEvent.StateDelta(patch));
                clientHoldsPrediction = true;
            }
            lastDeltaNanos = System.nanoTime();
        }
    }

    /** CopilotKit's PredictState value: snake_case keys, {@code tool_argument} absent for the whole arguments. */
    private JsonNode predictStateValue() {
        ArrayNode value = JsonNodeFactory.instance.arrayNode();
        for (PredictiveMapping mapping : agent.predictive()) {
            ObjectNode entry = value.addObject().put("state_key", mapping.stateKey()).put("tool", mapping.tool());
            if (!mapping.wholeArguments()) {
                entry.put("tool_argument", mapping.toolArgument());
            }
        }
        return value;
    }

    /** What the client holds now. */
    private JsonNode clientHolds() {
        if (clientHoldsPrediction) {
            clientHolds = predictive.clientView();
            clientHoldsPrediction = false;
        }
        return clientHolds;
    }

    /** The authoritative state for the client; {@code view} is {@link #clientView()}. */
    private AgUiEvent snapshot(JsonNode view) {
        clientHolds = view;
        clientHoldsPrediction = false;
        return new AgUiEvent.StateSnapshot(view);
    }

    /** Ends the round: records the assistant turn and says which tool calls the server must run. */
    synchronized RoundResult finishRound() {
        List<ToolCallState> calls = new ArrayList<>(round.toolCalls.values());
        String text = round.text.isEmpty() ? null : round.text.toString();
        transcript.add(new Message.Assistant(round.messageId, text, calls.isEmpty() ? null : calls.stream()
                .map(c -> new ToolCall(c.id, c.name, c.argumentsOrEmptyObject())).toList()));
        List<ServerToolCall> serverCalls = new ArrayList<>();
        List<ServerToolCall> toConfirm = new ArrayList<>();
        boolean waitsForClient = false;
        for (ToolCallState call : calls) {
            if (frontendTools.contains(call.name)) {
                waitsForClient = true;
                continue;
            }
            BackendTool tool = agent.tool(call.name).orElse(null);
            ServerToolCall serverCall = new ServerToolCall(call.id, call.name, call.argumentsOrEmptyObject(), tool);
            if (tool != null && agent.confirmation().requires(tool)) {
                toConfirm.add(serverCall);
            } else {
                serverCalls.add(serverCall);
            }
        }
        proposedKeys = stateKeysOf(toConfirm.stream().map(ServerToolCall::name).toList());
        return new RoundResult(calls.isEmpty(), serverCalls, waitsForClient, toConfirm);
    }

    /** The state keys the named tools predict or write. */
    private Set<String> stateKeysOf(List<String> toolNames) {
        Set<String> keys = new HashSet<>();
        for (String name : toolNames) {
            agent.predictive().stream().filter(p -> p.tool().equals(name)).forEach(p -> keys.add(p.stateKey()));
            agent.tool(name).ifPresent(tool -> keys.addAll(tool.outputsToState().keySet()));
        }
        return keys;
    }

    /**
     * Asks the user about the calls instead of running them: one {@code tool_call} interrupt each, expiring after
     * {@code agui.run.confirmation.expires-after}. In the client-tool form the client also gets a
     * {@value Confirmations#CONFIRM_CHANGES} call per interrupt, whose id is the interrupt's.
     */
    synchronized List<AgUiEvent> askConfirmation(List<ServerToolCall> calls) {
        String expiresAt = Instant.now().plus(confirmationExpiry).toString();
        String request = agent.confirmation().messages().request();
        List<AgUiEvent> out = new ArrayList<>();
        List<ToolCall> confirmCalls = new ArrayList<>();
        String messageId = UUID.randomUUID().toString();
        for (ServerToolCall call : calls) {
            String id = (clientConfirms ? "call_" : "confirm_") + UUID.randomUUID().toString().replace("-", "");
            opened.add(new Interrupt(id, "tool_call", request, call.id(), Confirmations.RESPONSE_SCHEMA, expiresAt,
                    null));
            if (clientConfirms) {
                confirmCalls.add(new ToolCall(id, Confirmations.CONFIRM_CHANGES, "{}"));
                out.add(new AgUiEvent.ToolCallStart(id, Confirmations.CONFIRM_CHANGES, messageId));
                out.add(new AgUiEvent.ToolCallArgs(id, "{}"));
                out.add(new AgUiEvent.ToolCallEnd(id));
            }
        }
        if (clientConfirms) {
            transcript.add(new Message.Assistant(messageId, null, confirmCalls));
        }
        LOG.infof("threadId=%s runId=%s: waiting for the user to confirm %s", threadId(), runId(),
                calls.stream().map(ServerToolCall::name).toList());
        return out;
    }

    /** The values a tool takes from state: parameter name → current value of the state key. */
    synchronized Map<String, JsonNode> stateInputs(BackendTool tool) {
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        tool.inputsFromState().forEach((key, parameter) -> {
            JsonNode value = state.get(key);
            if (value != null) {
                inputs.put(parameter, value);
            }
        });
        return inputs;
    }

    /** A running tool's view of this run's state; {@code emit} receives the STATE_DELTA of each live write. */
    ToolContext toolContext(Consumer<AgUiEvent> emit) {
        return new ToolContext() {
            @Override
            public JsonNode state(String key) {
                synchronized (Run.this) {
                    return state == null ? null : state.get(key);
                }
            }

            @Override
            public void updateState(String key, JsonNode value) {
                writeLive(key, value, emit);
            }
        };
    }

    /** Writes state for a running tool and sends the client the difference from what it holds, in order. */
    private synchronized void writeLive(String key, JsonNode value, Consumer<AgUiEvent> emit) {
        if (state == null) {
            throw new IllegalStateException("agent " + agent.name() + " keeps no state");
        }
        state.set(key, value);
        JsonNode now = clientView();
        JsonNode held = clientHolds();
        List<PatchOperation> patch = StatePatches.diff(held == null ? JsonNodeFactory.instance.objectNode() : held, now);
        if (!patch.isEmpty()) {
            clientHolds = now;
            emit.accept(new AgUiEvent.StateDelta(patch));
        }
    }

    /**
     * Records the server-side tool results: their state outputs are merged (in call order), the transcript
     * gets the results, and the client gets their {@code TOOL_CALL_RESULT}s, then one {@code STATE_SNAPSHOT}
     * if the tools changed the state.
     *
     * @throws RunFailure when a tool failed and the agent raises on tool failure
     */
    synchronized List<AgUiEvent> recordResults(List<ServerToolCall> calls, List<ToolOutcome> outcomes) {
        List<AgUiEvent> out = new ArrayList<>(calls.size() + 1);
        for (int i = 0; i < calls.size(); i++) {
            addResult(calls.get(i).id(), toolOutcome(calls.get(i), outcomes.get(i)).content(), out);
        }
        if (state != null) {
            // proposals awaiting confirmation stay on the client's screen; they are not the tools' changes
            JsonNode view = withProposals(clientView());
            if (!view.equals(withProposals(roundStartState)) || !view.equals(clientHolds())) {
                out.add(snapshot(view));
            }
        }
        return out;
    }

    /** The outcome with its state outputs merged. @throws RunFailure when it failed and the agent raises */
    private ToolOutcome toolOutcome(ServerToolCall call, ToolOutcome outcome) {
        ToolOutcome written = writeOutputs(call, outcome);
        if (written instanceof ToolOutcome.Failure failure && agent.raiseOnToolFailure()) {
            throw RunFailure.toolFailed(failure.failure().getMessage());
        }
        return written;
    }

    /**
     * A call's result: a tool message after the assistant message that made the call (and any results already
     * there, as {@code @ag-ui/client} places it), and its {@code TOOL_CALL_RESULT}.
     */
    private void addResult(String toolCallId, String content, List<AgUiEvent> out) {
        String messageId = UUID.randomUUID().toString();
        int at = transcript.size();
        for (int i = transcript.size() - 1; i >= 0; i--) {
            if (transcript.get(i) instanceof Message.Assistant a && a.toolCalls() != null
                    && a.toolCalls().stream().anyMatch(c -> c.id().equals(toolCallId))) {
                at = i + 1;
                while (at < transcript.size() && transcript.get(at) instanceof Message.Tool) {
                    at++;
                }
                break;
            }
        }
        transcript.add(at, new Message.Tool(messageId, content, toolCallId));
        out.add(new AgUiEvent.ToolCallResult(messageId, toolCallId, content));
    }

    /** {@code view} with the proposals awaiting confirmation as the client holds them. */
    private JsonNode withProposals(JsonNode view) {
        JsonNode held = clientHolds();
        if (proposedKeys.isEmpty() || !(view instanceof ObjectNode) || !(held instanceof ObjectNode)) {
            return view;
        }
        ObjectNode shown = ((ObjectNode) view).deepCopy();
        proposedKeys.stream().filter(held::has).forEach(key -> shown.set(key, held.get(key).deepCopy()));
        return shown;
    }

    /** Merges a successful result into state per the tool's {@code outputsToState}; a failed merge fails the call. */
    private ToolOutcome writeOutputs(ServerToolCall call, ToolOutcome outcome) {
        if (!(outcome instanceof ToolOutcome.Success success) || call.tool() == null
                || call.tool().outputsToState().isEmpty()) {
            return outcome;
        }
        State next = state.copy(); // all outputs of a call are stored, or none
        try {
            call.tool().outputsToState().forEach((key, output) -> {
                JsonNode value = output.source() == null ? success.value()
                        : success.value() == null ? null : success.value().get(output.source());
                if (value == null) {
                    throw new StateWriteException(key, "was not written: the result of " + call.name()
                            + " has no " + (output.source() == null ? "value" : "field '" + output.source() + "'"));
                }
                if (output.handler() == null) {
                    next.set(key, value);
                } else {
                    next.set(key, value, output.handler());
                }
            });
            state = next;
            return outcome;
        } catch (StateWriteException e) {
            return new ToolOutcome.Failure(new ToolFailure(ToolFailure.Kind.STATE_MERGE_FAILED,
                    "the result of " + call.name() + " could not be stored: " + e.getMessage(), e));
        }
    }

    /** Keeps the run's outcome (the final state and the whole conversation) before it is reported finished. */
    synchronized Uni<Void> commit() {
        return start.journal().commit(state == null ? input.state() : state.toJson(), List.copyOf(transcript),
                start.interrupts().next(opened, answered));
    }

    /** RUN_FINISHED; with the interrupts it opened as its outcome, unless they took the client-tool form. */
    synchronized AgUiEvent finished() {
        RunOutcome outcome = opened.isEmpty() || clientConfirms ? RunOutcome.SUCCESS
                : new RunOutcome.Interrupted(List.copyOf(opened));
        return new AgUiEvent.RunFinished(input.threadId(), input.runId(), null, outcome, usage());
    }

    /** The one {@code RUN_ERROR} of a failed run: a stable code and a message without internals. */
    synchronized AgUiEvent failed(Throwable error) {
        if (error instanceof ModelFailure failure) {
            LOG.warnf("threadId=%s runId=%s: run failed: %s (%s)", threadId(), runId(), failure.kind().code(),
                    rootMessage(failure));
            return new AgUiEvent.RunError(failure.getMessage(), failure.kind().code(), usage());
        }
        if (error instanceof RunFailure failure) {
            LOG.warnf("threadId=%s runId=%s: run failed: %s", threadId(), runId(), failure.code());
            return new AgUiEvent.RunError(failure.getMessage(), failure.code(), usage());
        }
        LOG.errorf(error, "threadId=%s runId=%s: run failed unexpectedly", threadId(), runId());
        return new AgUiEvent.RunError("The run failed because of an internal error.", "internal_error", usage());
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == error ? "no cause" : root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    /** Token usage of all rounds, summed; absent when the upstream reported none. */
    private List<TokenUsage> usage() {
        if (usages.isEmpty()) {
            return null;
        }
        ModelUsage last = usages.get(usages.size() - 1);
        return List.of(new TokenUsage(provider, last.model(),
                sum(usages.stream().map(ModelUsage::inputTokens).toList()),
                sum(usages.stream().map(ModelUsage::outputTokens).toList()),
                sum(usages.stream().map(ModelUsage::totalTokens).toList()), null, null));
    }

    private static Integer sum(List<Integer> counts) {
        Integer total = null;
        for (Integer count : counts) {
            if (count != null) {
                total = total == null ? count : total + count;
            }
        }
        return total;
    }

    /** A tool call the server executes; {@code tool} is null when the model named a tool that does not exist. */
    record ServerToolCall(String id, String name, String arguments, BackendTool tool) {

        ToolFailure notFound() {
            return new ToolFailure(ToolFailure.Kind.NOT_FOUND, "there is no tool named " + name, null);
        }
    }

    /**
     * @param textOnly        the model called no tools: the run is complete
     * @param serverCalls     calls to execute here, in the model's order
     * @param waitsForClient  a frontend tool was called: the run ends and the client continues it
     * @param toConfirm       calls that wait for the user's approval: the run asks, then ends
     */
    record RoundResult(boolean textOnly, List<ServerToolCall> serverCalls, boolean waitsForClient,
                       List<ServerToolCall> toConfirm) {

        boolean endsRun() {
            return waitsForClient || !toConfirm.isEmpty();
        }
    }
}
