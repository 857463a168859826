package dev.aguistate.run.request;

import dev.aguistate.run.OfferedTools;
import dev.aguistate.run.RunFixtures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.state.State;
import dev.aguistate.state.StatePrompt;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class ChatRequestsTest {

    private final RunAgentInput input = RunFixtures.input("""
            {"threadId":"t","runId":"r","messages":[{"id":"u1","role":"user","content":"Write a poem"}],
             "tools":[{"name":"change_background","description":"client tool"}],
             "context":[{"description":"page","value":"editor"}]}""");
    private final State state = new State(RunFixtures.DOCUMENT, AgUiJson.tree("{\"document\":\"draft\"}"));

    private ChatRequest request(AgentDefinition agent, RoundKind kind, State state) {
        ChatRequests requests = new ChatRequests(agent, new StatePrompt("STATE {state}", 1000),
                new ContextWindow(0, null), TokenBudget.NONE, null, input.context(), OfferedTools.of(agent, input).specifications());
        return requests.forRound(kind, state, input.messages(), Map.of());
    }

    private static List<String> texts(ChatRequest request) {
        return request.messages().stream().map(ChatRequestsTest::text).toList();
    }

    private static String text(ChatMessage message) {
        return message instanceof SystemMessage s ? "system: " + s.text()
                : message instanceof UserMessage u ? "user: " + u.singleText() : message.type().name();
    }

    @Test
    void aToolsRoundOffersEveryToolAfterInstructionsStateContextAndConversation() {
        ChatRequest request = request(RunFixtures.writer().build(), RoundKind.TOOLS, state);

        List<String> texts = texts(request);
        assertEquals("system: Write what the user asks for.", texts.get(0));
        assertTrue(texts.get(1).startsWith("system: STATE {"), texts.get(1));
        assertTrue(texts.get(2).contains("page: editor"), texts.get(2));
        assertEquals("user: Write a poem", texts.get(3));
        assertEquals(4, texts.size());
        assertEquals(List.of("write_document", "add_note", "change_background"),
                request.toolSpecifications().stream().map(s -> s.name()).toList());
    }

    @Test
    void aStateOutputRoundAsksForTheStateAsJsonOfItsSchemaAndOffersNoTools() {
        ChatRequest request = request(RunFixtures.writer().twoPhaseState().build(), RoundKind.STATE_OUTPUT, state);

        assertEquals("system: " + ChatRequests.STATE_OUTPUT_PROMPT, texts(request).get(texts(request).size() - 1));
        assertEquals(ResponseFormatType.JSON, request.responseFormat().type());
        assertTrue(request.toolSpecifications() == null || request.toolSpecifications().isEmpty());
    }

    @Test
    void aSummaryRoundAsksForTheSummaryWithoutTools() {
        ChatRequest request = request(RunFixtures.writer().twoPhaseState().build(), RoundKind.SUMMARY, state);

        assertEquals("system: " + ChatRequests.SUMMARY_PROMPT, texts(request).get(texts(request).size() - 1));
        assertNull(request.responseFormat());
        assertTrue(request.toolSpecifications() == null || request.toolSpecifications().isEmpty());
    }

    @Test
    void anAgentWithoutStateGetsNoStateMessage() {
        AgentDefinition stateless = AgentDefinition.builder("plain").build();

        assertTrue(texts(request(stateless, RoundKind.TOOLS, null)).stream().noneMatch(t -> t.contains("STATE")));
    }
}
