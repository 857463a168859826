package dev.aguistate.protocol;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/**
 * How a run finished: {@code {"type":"success"}} (in AG-UI 1.0 with {@code pendingToolCallIds} when it left tool
 * calls for the client to answer), {@code {"type":"interrupt","interrupts":[...]}}, or (AG-UI 1.0)
 * {@code {"type":"cancelled"}} when it was stopped before it was done.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = RunOutcome.Success.class, name = "success"),
    @JsonSubTypes.Type(value = RunOutcome.Interrupted.class, name = "interrupt"),
    @JsonSubTypes.Type(value = RunOutcome.Cancelled.class, name = "cancelled"),
})
public sealed interface RunOutcome {

    RunOutcome SUCCESS = new Success();
    RunOutcome CANCELLED = new Cancelled();

    /** {@code pendingToolCallIds} is null (omitted) when no call waits, never an empty list. */
    record Success(List<String> pendingToolCallIds) implements RunOutcome {
        public Success {
            pendingToolCallIds = pendingToolCallIds == null || pendingToolCallIds.isEmpty() ? null
                    : List.copyOf(pendingToolCallIds);
        }
        public Success() { this(null); }
    }

    record Interrupted(List<Interrupt> interrupts) implements RunOutcome {}

    record Cancelled() implements RunOutcome {}
}
