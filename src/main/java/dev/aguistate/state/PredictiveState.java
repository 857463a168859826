package dev.aguistate.state;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.PatchOperation;
import dev.aguistate.state.PartialValue.ObjectValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One run's predictions across all its tool calls (parallel calls included): each call's argument fragments feed
 * one {@link PartialJsonParser}, and each mapped state key reads its value out of that call's tree. A state key
 * belongs to the latest started call that predicts it; the first patch of a call replaces whatever the key held.
 *
 * <p>Not thread-safe; the run loop calls it in stream order.
 */
public final class PredictiveState {

    private final ObjectNode clientView;
    private final List<PredictiveMapping> mappings;
    private final Map<String, PartialJsonParser> parsersByToolCall = new HashMap<>();
    private final Map<String, KeyPrediction> predictionsByKey = new LinkedHashMap<>();

    /** @param clientState the JSON object the client holds now (never null; not mutated — copied) */
    public PredictiveState(ObjectNode clientState, List<PredictiveMapping> mappings) {
        this.clientView = Objects.requireNonNull(clientState, "clientState").deepCopy();
        this.mappings = List.copyOf(mappings);
        rejectKeyPredictedTwiceByOneTool(this.mappings);
    }

    /** One call would otherwise compete with itself for the key. */
    private static void rejectKeyPredictedTwiceByOneTool(List<PredictiveMapping> mappings) {
        Set<List<String>> seen = new HashSet<>();
        for (PredictiveMapping mapping : mappings) {
            if (!seen.add(List.of(mapping.tool(), mapping.stateKey()))) {
                throw new IllegalArgumentException(
                        "tool '" + mapping.tool() + "' predicts state key '" + mapping.stateKey() + "' twice");
            }
        }
    }

    public boolean predicts(String toolName) {
        return !mappingsFor(toolName).isEmpty();
    }

    public List<PredictiveMapping> mappingsFor(String toolName) {
        return mappings.stream().filter(mapping -> mapping.tool().equals(toolName)).toList();
    }

    public void onToolCallStart(String toolCallId, String toolName) {
        List<PredictiveMapping> toolMappings = mappingsFor(toolName);
        if (toolMappings.isEmpty()) {
            return;
        }
        PartialJsonParser parser = new PartialJsonParser();
        parsersByToolCall.put(toolCallId, parser);
        for (PredictiveMapping mapping : toolMappings) {
            predictionsByKey.put(mapping.stateKey(),
                    new KeyPrediction(mapping.stateKey(), predictedValue(parser, mapping), clientView));
        }
    }

    private static Supplier<PartialValue> predictedValue(PartialJsonParser parser, PredictiveMapping mapping) {
        if (mapping.wholeArguments()) {
            return parser::root;
        }
        // only a member of the top-level object: a nested member of the same name is not the argument
        return () -> parser.root() instanceof ObjectValue arguments ? arguments.get(mapping.toolArgument()) : null;
    }

    /** Fragments of calls that were not started or predict nothing are ignored. */
    public void onArguments(String toolCallId, String fragment) {
        PartialJsonParser parser = parsersByToolCall.get(toolCallId);
        if (parser != null) {
            parser.feed(fragment);
        }
    }

    /** Whether the prediction changed since the last drain. */
    public boolean hasPendingChanges() {
        return predictionsByKey.values().stream().anyMatch(KeyPrediction::hasPendingChanges);
    }

    /**
     * The smallest valid patch taking the client from what it holds (initial state + all drained patches) to the
     * current prediction; afterwards the client is assumed to hold the prediction. Empty when nothing changed.
     */
    public List<PatchOperation> drain() {
        List<PatchOperation> ops = new ArrayList<>();
        for (KeyPrediction prediction : predictionsByKey.values()) {
            prediction.drainInto(ops);
        }
        return ops;
    }

    /**
     * What {@code pacing} says the client should get now, at clock time {@code now} (nanoseconds, any origin: the
     * run passes {@link System#nanoTime()}, tests a simulated clock); call after every fragment, since deadlines
     * start when a change is first seen here. Empty when nothing is due.
     */
    public List<PatchOperation> drainDue(DeltaPacing pacing, long now) {
        List<PatchOperation> ops = new ArrayList<>();
        for (KeyPrediction prediction : predictionsByKey.values()) {
            prediction.drainDueInto(ops, pacing, now);
        }
        return ops;
    }

    /** What the client holds after the drained patches (a copy). */
    public ObjectNode clientView() {
        return clientView.deepCopy();
    }
}
