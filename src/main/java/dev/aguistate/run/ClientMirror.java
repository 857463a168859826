package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
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
 * <p>Every delta must also apply for a client that plays the run's state events onto an empty state rather than
 * onto the state it sent (CopilotKit's Node runtime does): such a client holds what this one holds once the run has
 * sent a snapshot, or when the state sent was empty. Until then, the run's first delta is preceded by a snapshot.
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
    /** A client that played the run's state events onto an empty state holds what this one holds. */
    private boolean heldFromEmpty;

    /** @param sent the state the client sent: a JSON object (an empty one when it sent none) */
    ClientMirror(JsonNode sent) {
        this.held = sent;
        this.heldFromEmpty = sent.isEmpty();
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
        heldFromEmpty = true;
        return new AgUiEvent.StateSnapshot(view);
    }

    /**
     * Before the first delta computed against {@code base} (a prediction's): a snapshot of {@code base} unless every
     * client holds it already, this one and one that started from an empty state.
     */
    Optional<AgUiEvent> baseOfDeltas(JsonNode base) {
        return heldFromEmpty && base.equals(holds()) ? Optional.empty() : Optional.of(snapshot(base));
    }

    /** A snapshot of {@code view} when the client holds something else. */
    Optional<AgUiEvent> snapshotIfDifferent(JsonNode view) {
        return view.equals(holds()) ? Optional.empty() : Optional.of(snapshot(view));
    }

    /**
     * The event taking the client to {@code view}: the delta, or a snapshot when a client that started from an empty
     * state may not hold what the delta changes. Empty when the client holds {@code view} already.
     */
    Optional<AgUiEvent> moveTo(JsonNode view) {
        if (!heldFromEmpty) {
            return view.equals(holds()) ? Optional.empty() : Optional.of(snapshot(view));
        }
        List<PatchOperation> patch = StatePatches.diff(holds(), view);
        if (patch.isEmpty()) {
            return Optional.empty();
        }
        held = view;
        return Optional.of(new AgUiEvent.StateDelta(patch));
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
