package dev.aguistate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.PatchOperation;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.testing.ClientStateReplay;
import dev.aguistate.testing.EventStreamVerifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The join prelude: what a client joining a live run is told must leave it holding what a client that saw the run
 * from its start holds, and be a valid beginning of a run.
 */
@Execution(ExecutionMode.CONCURRENT)
class RunProjectionTest {

    private static final Message QUESTION = new Message.User("u1", "Plan my week");

    private final List<AgUiEvent> run = List.of(
            new AgUiEvent.RunStarted("t", "r", null, null),
            new AgUiEvent.StateDelta(List.of(PatchOperation.add("/plan", AgUiJson.tree("[]")))),
            new AgUiEvent.TextMessageStart("a1", "assistant", null),
            new AgUiEvent.TextMessageContent("a1", "Let me "),
            new AgUiEvent.TextMessageContent("a1", "look."),
            new AgUiEvent.TextMessageEnd("a1"),
            new AgUiEvent.ToolCallStart("c1", "add_day", "a1"),
            new AgUiEvent.ToolCallArgs("c1", "{\"day\":"),
            new AgUiEvent.ToolCallArgs("c1", "\"Mon\"}"),
            new AgUiEvent.ToolCallEnd("c1"),
            new AgUiEvent.ToolCallResult("m2", "c1", "added"),
            new AgUiEvent.StateDelta(List.of(PatchOperation.add("/plan/0", AgUiJson.tree("{\"day\":\"Mon\"}")))),
            new AgUiEvent.TextMessageStart("a2", "assistant", null),
            new AgUiEvent.TextMessageContent("a2", "Monday is "),
            new AgUiEvent.ToolCallStart("c2", "add_day", "a2"),
            new AgUiEvent.ToolCallArgs("c2", "{\"day\":\"Tu"));

    private static List<LoggedEvent> log(JsonNode baseState, List<AgUiEvent> events) {
        List<LoggedEvent> entries = new ArrayList<>();
        entries.add(new LoggedEvent(0, "{\"state\":" + AgUiJson.write(baseState) + "}"));
        for (int i = 0; i < events.size(); i++) {
            entries.add(new LoggedEvent(i + 1, AgUiJson.write(events.get(i))));
        }
        return entries;
    }

    private static List<JsonNode> json(List<AgUiEvent> events) {
        return events.stream().map(e -> AgUiJson.tree(AgUiJson.write(e))).toList();
    }

    @Test
    void aJoiningClientEndsUpHoldingWhatAClientThatSawEverythingHolds() {
        JsonNode start = AgUiJson.tree("{\"owner\":\"ann\"}");
        // the stored thread holds the last checkpoint: the question, and the first round with its result
        List<Message> stored = List.of(QUESTION,
                new Message.Assistant("a1", "Let me look.", List.of(new dev.aguistate.protocol.ToolCall("c1",
                        "add_day", "{\"day\":\"Mon\"}"))),
                new Message.Tool("m2", "added", "c1"));
        List<AgUiEvent> rest = List.of(new AgUiEvent.ToolCallArgs("c2", "e\"}"), new AgUiEvent.ToolCallEnd("c2"),
                new AgUiEvent.TextMessageContent("a2", "booked."), new AgUiEvent.TextMessageEnd("a2"),
                new AgUiEvent.RunFinished("t", "r", null, RunOutcome.SUCCESS, null));

        RunProjection projection = RunProjection.over(stored, AgUiJson.tree("{}")).apply(log(start, run));
        List<AgUiEvent> joined = new ArrayList<>(projection.prelude("t", "r", true));
        joined.addAll(rest);
        List<AgUiEvent> whole = new ArrayList<>(run);
        whole.addAll(rest);

        EventStreamVerifier.verify(json(joined), "t", "r");
        assertEquals(run.size(), projection.lastSeq());
        assertNull(projection.terminal());
        ClientStateReplay joiner = ClientStateReplay.of(AgUiJson.tree("{}"), json(joined));
        ClientStateReplay witness = ClientStateReplay.of(start, json(whole));
        assertEquals(witness.held(), joiner.held(), "the same state");
        AgUiEvent.MessagesSnapshot snapshot = (AgUiEvent.MessagesSnapshot) joined.get(1);
        assertEquals(List.of("u1", "a1", "m2"), snapshot.messages().stream().map(Message::id).toList(),
                "the complete messages, each once, in order");
        assertEquals(List.of("TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TOOL_CALL_START", "TOOL_CALL_ARGS",
                        "STATE_SNAPSHOT"),
                joined.subList(2, 7).stream().map(e -> e.type().name()).toList(), "the open ones re-opened");
        assertEquals("Monday is ", ((AgUiEvent.TextMessageContent) joined.get(3)).delta());
        assertEquals("{\"day\":\"Tu", ((AgUiEvent.ToolCallArgs) joined.get(5)).delta());
    }

    @Test
    void aRunThatEndedIsJoinedWithItsTerminalEvent() {
        List<AgUiEvent> ended = new ArrayList<>(run.subList(0, 6));
        ended.add(new AgUiEvent.RunError("boom", "llm_unavailable", null));

        RunProjection projection = RunProjection.over(List.of(QUESTION), AgUiJson.tree("{}"))
                .apply(log(AgUiJson.tree("{}"), ended));

        assertEquals("llm_unavailable", ((AgUiEvent.RunError) projection.terminal()).code());
    }

    /** A joiner gets a sub-agent's messages attributed, and what it has open re-opened as its own. */
    @Test
    void aSubagentsMessagesAndWhatItHasOpenKeepItsRunId() {
        List<AgUiEvent> delegating = List.of(new AgUiEvent.RunStarted("t", "r"),
                new AgUiEvent.ToolCallStart("c1", "researcher", "a1"), new AgUiEvent.ToolCallEnd("c1"),
                new AgUiEvent.SubagentStarted("sa1", "researcher", null, null, "c1", null),
                new AgUiEvent.TextMessageStart("s1", "assistant", null).attributedTo("sa1"),
                new AgUiEvent.TextMessageContent("s1", "Otters").attributedTo("sa1"),
                new AgUiEvent.TextMessageEnd("s1").attributedTo("sa1"),
                new AgUiEvent.ToolCallStart("c2", "search", "s2").attributedTo("sa1"),
                new AgUiEvent.ToolCallEnd("c2").attributedTo("sa1"),
                new AgUiEvent.ToolCallResult("m3", "c2", "found").attributedTo("sa1"),
                new AgUiEvent.TextMessageStart("s3", "assistant", null).attributedTo("sa1"),
                new AgUiEvent.TextMessageContent("s3", "hold").attributedTo("sa1"));

        List<AgUiEvent> joined = new ArrayList<>(RunProjection.over(List.of(QUESTION), AgUiJson.tree("{}"))
                .apply(log(AgUiJson.tree("{}"), delegating)).prelude("t", "r", false));
        joined.add(new AgUiEvent.TextMessageContent("s3", " hands.").attributedTo("sa1"));
        joined.add(new AgUiEvent.TextMessageEnd("s3").attributedTo("sa1"));
        joined.add(new AgUiEvent.RunFinished("t", "r", null, RunOutcome.SUCCESS, null));

        EventStreamVerifier.verify(json(joined), "t", "r");
        List<Message> held = ((AgUiEvent.MessagesSnapshot) joined.get(1)).messages();
        assertEquals(java.util.Map.of("a1", "none", "s1", "sa1", "s2", "sa1", "m3", "sa1"), held.stream()
                .filter(m -> !m.id().equals("u1")).collect(java.util.stream.Collectors.toMap(Message::id,
                        m -> m.subagentRunId() == null ? "none" : m.subagentRunId())));
        assertEquals(List.of("sa1", "sa1"), joined.subList(2, 4).stream()
                .map(e -> AgUiJson.tree(AgUiJson.write(e)).path("subagentRunId").asText()).toList(),
                "the open message re-opened as the sub-agent's: " + joined.subList(2, 4));
    }
}
