package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.llm.ModelUsage;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.state.State;
import dev.aguistate.state.StateWriteException;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolContext;
import dev.aguistate.tools.ToolFailure;
import dev.aguistate.tools.ToolOutcome;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * What backend tools do to the run's state and show the client while they run: the values they read from the state
 * ({@code inputsFromState}), the writes they make while running ({@link ToolContext#updateState}, each shown to the
 * client at once as a {@code STATE_DELTA}, or a {@code STATE_SNAPSHOT} where {@link ClientMirror#moveTo} says a
 * delta would not do), their activities ({@link ToolContext#activity}, {@link ToolActivities}), and the outputs
 * merged into the state when they finish ({@code outputsToState}: all of a call's outputs, or none).
 *
 * <p>This is the one concurrent path of a run: a round's tools run in parallel on worker threads while the run
 * waits for them, and an activity change that waits for its time is sent from a timer. They hold {@link #lock}
 * only for "read or write the state or an activity, diff against what the client holds, enqueue the event"; the
 * events are emitted after the lock is released, in the order they were enqueued, by one thread at a time, so no
 * foreign code (serialization, metrics, network writes) runs under it. Everything else here runs on the run's
 * serial path, when no tool is running.
 */
final class ToolEffects {

    private final Object lock = new Object();
    private final RunState state;
    private final ClientMirror client;
    private final Duration activityInterval;

    /** @param activityInterval the least time between two {@code ACTIVITY_DELTA}s of one activity message */
    ToolEffects(RunState state, ClientMirror client, Duration activityInterval) {
        this.state = state;
        this.client = client;
        this.activityInterval = activityInterval;
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

    /**
     * The context of one round's running tools; {@code emit} receives the {@code STATE_DELTA} of each live write
     * and the round's activity events.
     */
    RoundEffects context(Consumer<AgUiEvent> emit) {
        return new RoundEffects(emit);
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

    /**
     * What a sub-agent's run left its parent: the messages it added to its task (attributed to it), to keep in the
     * parent's conversation, its LLM calls' usage, which counts into the parent's, and the questions it asked the
     * user ({@code asked}, attributed to it): then it is suspended, and the parent's call waits with it.
     */
    record Delegation(List<Message> messages, List<ModelUsage> usage, List<Interrupt> asked) {

        /** What a run that failed left: what it asked goes unasked. */
        Delegation failed() {
            return new Delegation(messages, usage, List.of());
        }
    }

    /**
     * The tool context of one round's tools: reads, live writes and activities under the lock, their events emitted
     * in order; each call reaches it through its {@link CallContext}. Once the tools are done, {@link #settle}
     * sends what waits and {@link #then} what follows it.
     */
    final class RoundEffects implements ToolContext {

        private final Consumer<AgUiEvent> emit;
        private final ToolActivities activities = new ToolActivities(activityInterval);
        /** What is to be done outside the lock, in order: emitting events, then completing the round's stream. */
        private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();
        /** Emissions in progress or asked for: whoever raises it from 0 emits until nothing is pending. */
        private final AtomicInteger draining = new AtomicInteger();
        /** By tool call id: what the round's sub-agents left; written by their calls' threads. */
        private final Map<String, Delegation> delegations = new ConcurrentHashMap<>();
        /** Guarded by the lock: the tools are done (or stopped), activities are no longer shown. */
        private boolean settled;
        /** Guarded by the lock: the timer that sends the activity changes that wait, and when it fires. */
        private ScheduledFuture<?> timer;
        private long timerDue;

        RoundEffects(Consumer<AgUiEvent> emit) {
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
                client.moveTo(state.clientView()).ifPresent(this::enqueue);
            }
            drain();
        }

        /** A call's activity; see {@link ToolContext#activity}. Ignored once the round's tools are done. */
        void activity(String toolCallId, String type, JsonNode content) {
            List<AgUiEvent> out = new ArrayList<>(1);
            synchronized (lock) {
                if (settled) {
                    return;
                }
                long now = System.nanoTime();
                schedule(activities.show(toolCallId, type, content, now, out), now);
                out.forEach(this::enqueue);
            }
            drain();
        }

        /** Shows an event of a sub-agent's run at once, in order with the round's other events. */
        void show(AgUiEvent event) {
            enqueue(event);
            drain();
        }

        /** Keeps what a sub-agent's run for the call left, for {@link #delegations}. */
        void delegated(String toolCallId, Delegation delegation) {
            delegations.put(toolCallId, delegation);
        }

        /** What the round's sub-agents left, by tool call id, in the order of {@code calls}. */
        Map<String, Delegation> delegations(List<ServerToolCall> calls) {
            Map<String, Delegation> left = new LinkedHashMap<>();
            calls.stream().filter(call -> delegations.containsKey(call.id()))
                    .forEach(call -> left.put(call.id(), delegations.get(call.id())));
            return left;
        }

        /** The timer's turn: the activity changes whose time has come. */
        private void sendDue() {
            List<AgUiEvent> out = new ArrayList<>(1);
            synchronized (lock) {
                timer = null;
                if (settled) {
                    return;
                }
                long now = System.nanoTime();
                schedule(activities.due(now, out), now);
                out.forEach(this::enqueue);
            }
            drain();
        }

        /** Under the lock: the timer fires by {@code due} (none when {@code Long.MIN_VALUE}). */
        private void schedule(long due, long now) {
            if (due == Long.MIN_VALUE || timer != null && timerDue - due <= 0) {
                return;
            }
            if (timer != null) {
                timer.cancel(false);
            }
            timerDue = due;
            timer = Infrastructure.getDefaultWorkerPool().schedule(this::sendDue, due - now, TimeUnit.NANOSECONDS);
        }

        /**
         * The round's tools are done: the activity changes that wait are sent (before the results), and the
         * activity messages are final.
         *
         * @return the round's activity messages, to keep in the conversation
         */
        List<Message> settle() {
            List<AgUiEvent> out = new ArrayList<>();
            List<Message> messages;
            synchronized (lock) {
                stopTimer();
                activities.rest(System.nanoTime(), out);
                messages = activities.messages();
                out.forEach(this::enqueue);
            }
            drain();
            return messages;
        }

        /** The round was stopped: nothing more is sent. */
        void abandon() {
            synchronized (lock) {
                stopTimer();
            }
        }

        /** Emits {@code events} after everything enqueued before, then runs {@code next}. */
        void then(List<AgUiEvent> events, Runnable next) {
            events.forEach(this::enqueue);
            pending.add(next);
            drain();
        }

        private void stopTimer() {
            settled = true;
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
        }

        private void enqueue(AgUiEvent event) {
            pending.add(() -> emit.accept(event));
        }

        private void drain() {
            if (draining.getAndIncrement() != 0) {
                return;
            }
            do {
                for (Runnable next = pending.poll(); next != null; next = pending.poll()) {
                    next.run();
                }
            } while (draining.decrementAndGet() != 0);
        }
    }
}
