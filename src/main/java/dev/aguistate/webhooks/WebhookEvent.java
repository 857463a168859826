package dev.aguistate.webhooks;

import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.RunOutcome;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a run ended, as a webhook tells it: the payload's {@code type} is {@code run.} and the lower-case name
 * ({@code run.finished}), and a webhook's {@code events} names the outcomes it is sent for.
 */
public enum WebhookEvent {
    /** {@code RUN_FINISHED} with the run done: nothing waits for the client. */
    FINISHED,
    /** {@code RUN_ERROR}, with its code. */
    FAILED,
    /** {@code RUN_FINISHED} {@code cancelled}: stopped (a stop request, a client that left, a newer run). */
    CANCELLED,
    /**
     * The run ended waiting for the client: {@code RUN_FINISHED} with an interrupt (a confirmation) or with tool calls
     * the client's frontend tools are to answer ({@code pendingToolCallIds}).
     */
    INTERRUPTED;

    /** The name a configuration or an agents file uses: {@code finished}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The payload's {@code type}: {@code run.finished}. */
    public String type() {
        return "run." + wireName();
    }

    /** The event a name stands for, if it is one. */
    public static Optional<WebhookEvent> named(String name) {
        return Arrays.stream(values()).filter(event -> event.wireName().equals(name)).findFirst();
    }

    /** {@code finished, failed, …}: for the messages that refuse a name that is none. */
    public static String choices() {
        return Arrays.stream(values()).map(WebhookEvent::wireName).collect(Collectors.joining(", "));
    }

    /** How a run whose terminal event is {@code terminal} ended. */
    static WebhookEvent of(AgUiEvent terminal) {
        if (terminal instanceof AgUiEvent.RunError) {
            return FAILED;
        }
        if (!(terminal instanceof AgUiEvent.RunFinished finished)) {
            throw new IllegalArgumentException("not a terminal event: " + terminal.type());
        }
        RunOutcome outcome = finished.outcome();
        if (outcome instanceof RunOutcome.Cancelled) {
            return CANCELLED;
        }
        if (outcome instanceof RunOutcome.Interrupted
                || outcome instanceof RunOutcome.Success success && success.pendingToolCallIds() != null) {
            return INTERRUPTED;
        }
        return FINISHED;
    }
}
