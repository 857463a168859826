package dev.aguistate.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.protocol.RunAgentInput;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class OfferedToolsTest {

    private static RunAgentInput withClientTools(String... names) {
        StringBuilder tools = new StringBuilder();
        for (String name : names) {
            tools.append(tools.isEmpty() ? "" : ",").append("{\"name\":\"").append(name)
                    .append("\",\"description\":\"client tool\"}");
        }
        return RunFixtures.input("{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"tools\":[" + tools + "]}");
    }

    private static ToolCallState call(String id, String name) {
        return new ToolCallState(id, name);
    }

    @Test
    void theLlmIsOfferedTheAgentsToolsThenTheClientsExceptShadowedOnesAndConfirmChanges() {
        OfferedTools tools = OfferedTools.of(RunFixtures.writer().build(),
                withClientTools("change_background", "add_note", "confirm_changes"));

        assertEquals(List.of("write_document", "add_note", "change_background"),
                tools.specifications().stream().map(s -> s.name()).toList());
        assertTrue(tools.clientConfirms());
        assertFalse(OfferedTools.of(RunFixtures.writer().build(), withClientTools("x")).clientConfirms());
    }

    @Test
    void aRoundsCallsAreSortedIntoServerCallsCallsToConfirmAndCallsTheClientRuns() {
        AgentDefinition agent = RunFixtures.writer().requireConfirmation("write_document").build();
        OfferedTools tools = OfferedTools.of(agent, withClientTools("change_background"));

        OfferedTools.RoundCalls calls = tools.sort(List.of(call("c1", "add_note"), call("c2", "write_document"),
                call("c3", "change_background"), call("c4", "no_such_tool")));

        assertEquals(List.of("c1", "c4"), calls.serverCalls().stream().map(ServerToolCall::id).toList());
        assertNull(calls.serverCalls().get(1).tool());
        assertEquals(List.of("c2"), calls.toConfirm().stream().map(ServerToolCall::id).toList());
        assertEquals(List.of("c3"), calls.clientCalls());
        assertTrue(calls.waitsForClient());
        assertTrue(calls.endRun());
        assertFalse(calls.none());
        assertTrue(tools.sort(List.of()).none());
    }
}
