package dev.aguistate.protocol;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/** How a run finished: {@code {"type":"success"}} or {@code {"type":"interrupt","interrupts":[...]}}. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = RunOutcome.Success.class, name = "success"),
    @JsonSubTypes.Type(value = RunOutcome.Interrupted.class, name = "interrupt"),
})
public sealed interface RunOutcome {

    RunOutcome SUCCESS = new Success();

    record Success() implements RunOutcome {}

    record Interrupted(List<Interrupt> interrupts) implements RunOutcome {}
}
