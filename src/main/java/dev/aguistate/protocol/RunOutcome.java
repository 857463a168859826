package dev.aguistate.protocol;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/**
 * How a run finished: {@code {"type":"success"}}, {@code {"type":"interrupt","interrupts":[...]}}, or (AG-UI 1.0)
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

    record Success() implements RunOutcome {}

    record Interrupted(List<Interrupt> interrupts) implements RunOutcome {}

    record Cancelled() implements RunOutcome {}
}
