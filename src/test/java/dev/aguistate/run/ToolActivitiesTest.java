package dev.aguistate.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.PatchOperation;
import dev.aguistate.state.StatePatches;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The pacing of one round's activity messages, on a simulated clock (nanoseconds). */
@Execution(ExecutionMode.CONCURRENT)
class ToolActivitiesTest {

    private static final long MS = 1_000_000;
    private final ToolActivities activities = new ToolActivities(Duration.ofMillis(100));
    private final List<AgUiEvent> sent = new ArrayList<>();

    private static JsonNode progress(double fraction) {
        return AgUiJson.tree("{\"fraction\":" + fraction + ",\"message\":\"working\"}");
    }

    /** What a client holds after applying what was sent. */
    private JsonNode held() {
        JsonNode content = null;
        for (AgUiEvent event : sent) {
            if (event instanceof AgUiEvent.ActivitySnapshot snapshot) {
                content = snapshot.content();
            } else if (event instanceof AgUiEvent.ActivityDelta delta) {
                content = StatePatches.apply(content, delta.patch());
            }
        }
        return content;
    }

    @Test
    void theFirstReportGoesAtOnceAndABurstWithinTheIntervalBecomesOneDeltaWhenItIsDue() {
        assertEquals(Long.MIN_VALUE, activities.show("c1", "tool-progress", progress(0), 0, sent));
        assertInstanceOf(AgUiEvent.ActivitySnapshot.class, sent.get(0));

        long due = Long.MIN_VALUE;
        for (int i = 1; i <= 9; i++) {
            due = activities.show("c1", "tool-progress", progress(i / 10.0), i * 10 * MS, sent);
        }
        assertEquals(1, sent.size(), "nothing more within the interval");
        assertEquals(100 * MS, due);
        assertEquals(100 * MS, activities.due(99 * MS, sent), "not yet");

        assertEquals(Long.MIN_VALUE, activities.due(100 * MS, sent));
        assertEquals(2, sent.size());
        assertEquals(List.of(new PatchOperation("replace", "/fraction",
                AgUiJson.tree("0.9"), null)), ((AgUiEvent.ActivityDelta) sent.get(1)).patch());
        assertEquals(progress(0.9), held());
    }

    @Test
    void aReportAfterTheIntervalGoesAtOnceAndWhatWaitsGoesBeforeTheResults() {
        activities.show("c1", "tool-progress", progress(0), 0, sent);
        activities.show("c1", "tool-progress", progress(0.5), 150 * MS, sent);
        assertEquals(2, sent.size());
        activities.show("c1", "tool-progress", progress(0.6), 160 * MS, sent);
        activities.show("c2", "tool-progress", progress(0.1), 170 * MS, sent);

        activities.rest(180 * MS, sent);

        assertEquals(4, sent.size(), sent.toString());
        List<Message> messages = activities.messages();
        assertEquals(2, messages.size());
        assertEquals(progress(0.6), ((Message.Activity) messages.get(0)).content());
        assertNotEquals(messages.get(0).id(), messages.get(1).id(), "one message per call");
    }

    @Test
    void aReportThatChangesNothingSendsNothingAndContentMustBeAnObject() {
        activities.show("c1", "sources", AgUiJson.tree("{\"items\":[]}"), 0, sent);
        activities.due(200 * MS, sent);
        activities.show("c1", "sources", AgUiJson.tree("{\"items\":[]}"), 300 * MS, sent);
        assertEquals(1, sent.size());
        assertThrows(IllegalArgumentException.class,
                () -> activities.show("c1", "sources", AgUiJson.tree("[1]"), 400 * MS, sent));
        assertEquals(1, activities.messages().size());
    }
}
