package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.PatchOperation;
import dev.aguistate.state.PredictiveState;
import dev.aguistate.state.StatePatches;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the client holds of the state: the state it sent, then every snapshot and delta the run sent it. Every
 * {@code STATE_DELTA} must apply to it, so snapshots and live writes are computed against it.
 *
 * <p>While a prediction streams, the client holds the prediction's view; it is read from the prediction only
 * when needed, so that a delta per argument chunk does not cost a copy of the whole state.
 */
final class ClientMirror {

    private JsonNode held;
    /** Non-null while the client holds this prediction's latest drained view. */
    private PredictiveState prediction;
    /** Keys whose proposal awaits the user's answer: the client keeps showing the proposal. */
    private Set<String> proposedKeys = Set.of();
    private boolean toldPredictState;

    ClientMirror(JsonNode sent) {
        this.held = sent;
    }

    JsonNode holds() {
        if (prediction != null) {
            held = prediction.clientView();
            prediction = null;
        }
        return held;
    }

    /** The client applied a delta of this prediction: it holds the prediction's view from now on. */
    void holdsPrediction(PredictiveState prediction) {
        this.prediction = prediction;
    }

    /** True once per run: before its first predicted tool call the client learns the PredictState configuration. */
    boolean firstPredictedCall() {
        boolean first = !toldPredictState;
        toldPredictState = true;
        return first;
    }

    /** The authoritative state for the client; it holds {@code view} afterwards. */
    AgUiEvent.StateSnapshot snapshot(JsonNode view) {
        held = view;
        prediction = null;
        return new AgUiEvent.StateSnapshot(view);
    }

    /** A snapshot of {@code view} when the client holds something else. */
    Optional<AgUiEvent> snapshotIfDifferent(JsonNode view) {
        return view.equals(holds()) ? Optional.empty() : Optional.of(snapshot(view));
    }

    /** The patch taking the client to {@code view}; it holds {@code view} afterwards. Empty when it already does. */
    List<PatchOperation> moveTo(JsonNode view) {
        JsonNode from = holds();
        List<PatchOperation> patch = StatePatches.diff(from == null ? JsonNodeFactory.instance.objectNode() : from,
                view);
        if (!patch.isEmpty()) {
            held = view;
        }
        return patch;
    }

    /** The keys the round's calls awaiting confirmation predict or write. */
    void propose(Set<String> keys) {
        this.proposedKeys = Set.copyOf(keys);
    }

    /** {@code view} with the proposals awaiting confirmation as the client holds them. */
    JsonNode withProposals(JsonNode view) {
        JsonNode client = holds();
        if (proposedKeys.isEmpty() || !(view instanceof ObjectNode) || !(client instanceof ObjectNode)) {
            return view;
        }
        ObjectNode shown = ((ObjectNode) view).deepCopy();
        proposedKeys.stream().filter(client::has).forEach(key -> shown.set(key, client.get(key).deepCopy()));
        return shown;
    }
}
