package dev.aguistate.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class StopSwitchTest {

    @Test
    void theFirstReasonReachesTheListenerOnceAndLaterOnesChangeNothing() {
        StopSwitch stop = new StopSwitch();
        List<StopSwitch.Reason> heard = new ArrayList<>();
        stop.listen(heard::add);

        stop.stop(StopSwitch.Reason.TIME_LIMIT);
        stop.stop(StopSwitch.Reason.REQUESTED);

        assertEquals(List.of(StopSwitch.Reason.TIME_LIMIT), heard);
    }

    @Test
    void aListenerThatComesAfterTheStopHearsItAtOnce() {
        StopSwitch stop = new StopSwitch();
        stop.stop(StopSwitch.Reason.REQUESTED);
        List<StopSwitch.Reason> heard = new ArrayList<>();

        stop.listen(heard::add);

        assertEquals(List.of(StopSwitch.Reason.REQUESTED), heard);
    }

    @Test
    void aListenerThatStoppedListeningHearsNothing() {
        StopSwitch stop = new StopSwitch();
        List<StopSwitch.Reason> heard = new ArrayList<>();
        stop.listen(heard::add).cancel();

        stop.stop(StopSwitch.Reason.REQUESTED);

        assertEquals(List.of(), heard);
    }
}
