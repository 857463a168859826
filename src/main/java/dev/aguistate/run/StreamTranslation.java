package dev.aguistate.run;

import dev.aguistate.run.request.RoundKind;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.llm.FinishReason;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.ModelFailure;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.PatchOperation;
import dev.aguistate.state.DeltaPacing;
import dev.aguistate.state.PredictiveMapping;
import dev.aguistate.state.PredictiveState;
import java.util.List;
import java.util.UUID;

/**
 * One round's model stream as AG-UI events: reasoning and text messages, tool calls with their arguments, and,
 * while a state tool's arguments stream, the predicted {@code STATE_DELTA}s — paced by {@link DeltaPacing}, what
 * is pending always flushed before {@code TOOL_CALL_END} — preceded once per run by {@code CUSTOM PredictState},
 * and the round's first by a {@code STATE_SNAPSHOT} of what they apply to when a client may not hold it
 * ({@link ClientMirror#baseOfDeltas}).
 * In a {@link RoundKind#STATE_OUTPUT} round the text is the new state's JSON: it streams as a prediction of every
 * state key, never as a text message.
 */
final class StreamTranslation {

    static final String PREDICT_STATE = "PredictState";
    /** Appended to an answer the token limit cut short. */
    static final String CUT_SHORT = "\n\n[The answer was cut short: the model reached its output token limit.]";
    /** The pseudo tool call whose "arguments" are a two-phase agent's structured state output, for predictions. */
    private static final String STRUCTURED_STATE = "structured_state";

    private final Round round = new Round(UUID.randomUUID().toString());
    private final RoundKind kind;
    private final AgentDefinition agent;
    /** Null when this round predicts nothing. */
    private final PredictiveState prediction;
    private final ClientMirror client;
    private final TerminalEvents ending;
    /** Null when the client predicts from the arguments itself ({@link RunOptions#predictedStateDeltas}): no deltas are sent. */
    private final DeltaPacing pacing;
    /** What the prediction starts from: the state as the client may see it when the round started. */
    private final JsonNode base;
    private boolean deltaSent;

    private StreamTranslation(RoundKind kind, AgentDefinition agent, PredictiveState prediction, ClientMirror client,
                              TerminalEvents ending, DeltaPacing pacing, JsonNode base) {
        this.kind = kind;
        this.agent = agent;
        this.prediction = prediction;
        this.client = client;
        this.ending = ending;
        this.pacing = pacing;
        this.base = base;
    }

    /**
     * @param view   the state as the client may see it when the round starts (null when the agent keeps none): what
     *               predictions start from
     * @param pacing how predicted deltas are paced; null: none are sent (the client opted out)
     */
    static StreamTranslation start(RoundKind kind, AgentDefinition agent, JsonNode view, ClientMirror client,
                                   TerminalEvents ending, DeltaPacing pacing) {
        PredictiveState prediction = null;
        if (view != null && kind == RoundKind.STATE_OUTPUT) {
            prediction = new PredictiveState((ObjectNode) view, agent.state().keys().stream()
                    .map(key -> new PredictiveMapping(key.name(), STRUCTURED_STATE, key.name())).toList());
            prediction.onToolCallStart(STRUCTURED_STATE, STRUCTURED_STATE);
        } else if (view != null && !agent.predictive().isEmpty()) {
            prediction = new PredictiveState((ObjectNode) view, agent.predictive());
        }
        return new StreamTranslation(kind, agent, prediction, client, ending, pacing, view);
    }

    /** The assistant message streamed so far. */
    Round round() {
        return round;
    }

    /** Adds the AG-UI events of one model event to {@code out}. */
    void translate(ModelEvent event, List<AgUiEvent> out) {
        if (event instanceof ModelEvent.ReasoningDelta reasoning) {
            round.reason(reasoning.text(), out);
        } else if (event instanceof ModelEvent.TextDelta text) {
            text(text.text(), out);
        } else if (event instanceof ModelEvent.ToolCallDelta delta) {
            round.closeReasoning(out);
            appendArguments(toolCall(delta.index(), delta.id(), delta.name(), out), delta.argumentsDelta(), out);
        } else if (event instanceof ModelEvent.ToolCallCompleted complete) {
            round.closeReasoning(out);
            ToolCallState call = toolCall(complete.index(), complete.id(), complete.name(), out);
            appendArguments(call, call.missingArguments(complete.arguments()), out);
            flushPrediction(out);
            call.end(out);
        } else if (event instanceof ModelEvent.Completed completed) {
            if (completed.usage() != null) {
                ending.countUsage(completed.usage());
            }
            if (completed.finishReason() == FinishReason.LENGTH) {
                cutShort(out);
            }
            flushPrediction(out);
            round.close(out);
        } else {
            throw new IllegalStateException("no translation for model event " + event.getClass().getName());
        }
    }

    /**
     * The token limit ended the answer. Its text is kept and says so, where every client shows it; a state output
     * cut short is no state at all.
     */
    private void cutShort(List<AgUiEvent> out) {
        if (kind == RoundKind.STATE_OUTPUT) {
            throw new ModelFailure(ModelFailure.Kind.OUTPUT_TRUNCATED, null);
        }
        round.text(round.text.isEmpty() ? CUT_SHORT.strip() : CUT_SHORT, out);
    }

    private void text(String delta, List<AgUiEvent> out) {
        if (kind == RoundKind.STATE_OUTPUT) {
            round.text.append(delta);
            predict(STRUCTURED_STATE, delta, out);
        } else {
            round.closeReasoning(out);
            round.text(delta, out);
        }
    }

    /** The round's call at {@code index}, started on first sight (after PredictState if it predicts state). */
    private ToolCallState toolCall(int index, String id, String name, List<AgUiEvent> out) {
        ToolCallState existing = round.toolCalls.get(index);
        if (existing != null) {
            return existing;
        }
        boolean predicted = prediction != null && prediction.predicts(name);
        if (predicted && client.firstPredictedCall()) {
            out.add(new AgUiEvent.Custom(PREDICT_STATE, predictStateValue()));
        }
        ToolCallState call = round.startToolCall(index, id, name, out);
        if (predicted) {
            prediction.onToolCallStart(call.id, name);
        }
        return call;
    }

    private void appendArguments(ToolCallState call, String fragment, List<AgUiEvent> out) {
        if (call.appendArguments(fragment, out)) {
            predict(call.id, fragment, out);
        }
    }

    /** Feeds streamed JSON to the prediction and sends what its pacing says is due. */
    private void predict(String streamId, String fragment, List<AgUiEvent> out) {
        if (prediction != null && pacing != null) {
            prediction.onArguments(streamId, fragment);
            send(prediction.drainDue(pacing, System.nanoTime()), out);
        }
    }

    /** Sends all the prediction gained since the last delta. */
    private void flushPrediction(List<AgUiEvent> out) {
        if (prediction != null && pacing != null && prediction.hasPendingChanges()) {
            send(prediction.drain(), out);
        }
    }

    /** Sends a predicted delta; before the round's first, whatever makes every client hold what it applies to. */
    private void send(List<PatchOperation> patch, List<AgUiEvent> out) {
        if (!patch.isEmpty()) {
            if (!deltaSent) {
                client.baseOfDeltas(base).ifPresent(out::add);
                deltaSent = true;
            }
            out.add(new AgUiEvent.StateDelta(patch));
            client.holdsPrediction(prediction);
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
}
