package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.state.State;
import dev.aguistate.state.StateWriteException;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolContext;
import dev.aguistate.tools.ToolFailure;
import dev.aguistate.tools.ToolOutcome;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * What backend tools do to the run's state: the values they read from it ({@code inputsFromState}), the writes
 * they make while running ({@link ToolContext#updateState}, each shown to the client at once as a
 * {@code STATE_DELTA}, or a {@code STATE_SNAPSHOT} where {@link ClientMirror#moveTo} says a delta would not do), and the outputs merged into it when they finish ({@code outputsToState}: all of a call's
 * outputs, or none).
 *
 * <p>This is the one concurrent path of a run: a round's tools run in parallel on worker threads while the run
 * waits for them. Their reads and live writes hold {@link #lock} only for "read or write the state, diff against
 * what the client holds, enqueue the event"; the events are emitted after the lock is released, in the order they
 * were enqueued, so no foreign code (serialization, metrics, network writes) runs under it. Everything else here
 * runs on the run's serial path, when no tool is running.
 */
final class ToolEffects {

    private final Object lock = new Object();
    private final RunState state;
    private final ClientMirror client;

    ToolEffects(RunState state, ClientMirror client) {
        this.state = state;
        this.client = client;
    }

    /** The values a tool takes from state: parameter name → current value of the state key. */
    Map<String, JsonNode> inputsFor(BackendTool tool) {
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        synchronized (lock) {
            tool.inputsFromState().forEach((key, parameter) -> {
                JsonNode value = state.current().get(key);
                if (value != null) {
                    inputs.put(parameter, value);
                }
            });
        }
        return inputs;
    }

    /** A running tool's view of the state; {@code emit} receives the {@code STATE_DELTA} of each live write. */
    ToolContext context(Consumer<AgUiEvent> emit) {
        return new LiveWrites(emit);
    }

    /**
     * The outcome with its state outputs merged into the state; a failed merge turns it into a failure and leaves
     * the state as it was.
     */
    ToolOutcome mergeOutputs(ServerToolCall call, ToolOutcome outcome) {
        if (!(outcome instanceof ToolOutcome.Success success) || call.tool() == null
                || call.tool().outputsToState().isEmpty()) {
            return outcome;
        }
        State next = state.current().copy();
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
            state.replace(next);
            return outcome;
        } catch (StateWriteException e) {
            return new ToolOutcome.Failure(new ToolFailure(ToolFailure.Kind.STATE_MERGE_FAILED,
                    "the result of " + call.name() + " could not be stored: " + e.getMessage(), e));
        }
    }

    /** The tool context of one round's tools: reads and live writes under the lock, deltas emitted in order. */
    private final class LiveWrites implements ToolContext {

        private final Consumer<AgUiEvent> emit;
        private final Queue<AgUiEvent> pending = new ConcurrentLinkedQueue<>();
        /** Emissions in progress or asked for: whoever raises it from 0 emits until nothing is pending. */
        private final AtomicInteger draining = new AtomicInteger();

        LiveWrites(Consumer<AgUiEvent> emit) {
            this.emit = emit;
        }

        @Override
        public JsonNode state(String key) {
            synchronized (lock) {
                return state.kept() ? state.current().get(key) : null;
            }
        }

        @Override
        public void updateState(String key, JsonNode value) {
            synchronized (lock) {
                state.current().set(key, value);
                client.moveTo(state.clientView()).ifPresent(pending::add);
            }
            drain();
        }

        private void drain() {
            if (draining.getAndIncrement() != 0) {
                return;
            }
            do {
                for (AgUiEvent event = pending.poll(); event != null; event = pending.poll()) {
                    emit.accept(event);
                }
            } while (draining.decrementAndGet() != 0);
        }
    }
}
