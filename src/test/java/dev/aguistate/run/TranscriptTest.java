package dev.aguistate.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.MessageContent;
import dev.aguistate.protocol.ToolCall;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class TranscriptTest {

    private static final Message ASK = new Message.User("u1", "do two things");
    private static final Message CALLS = new Message.Assistant("a1", null,
            List.of(new ToolCall("c1", "one", "{}"), new ToolCall("c2", "two", "{}")));
    private static final Message LATER = new Message.User("u2", "and then?");

    private static List<String> ids(Transcript transcript) {
        return transcript.messages().stream().map(m -> m instanceof Message.Tool t ? "result:" + t.toolCallId()
                : m.id()).toList();
    }

    @Test
    void aResultGoesRightAfterItsCallAndTheResultsAlreadyThere() {
        Transcript transcript = new Transcript(List.of(ASK, CALLS, LATER));

        transcript.addResult("c2", new MessageContent.Text("two done"));
        transcript.addResult("c1", new MessageContent.Text("one done"));

        assertEquals(List.of("u1", "a1", "result:c2", "result:c1", "u2"), ids(transcript));
    }

    @Test
    void theResultEventNamesTheToolMessageItRecorded() {
        Transcript transcript = new Transcript(List.of(ASK, CALLS));

        AgUiEvent.ToolCallResult result = transcript.addResult("c1", new MessageContent.Text("done"));

        Message.Tool recorded = (Message.Tool) transcript.messages().get(2);
        assertEquals(recorded.id(), result.messageId());
        assertEquals("c1", result.toolCallId());
        assertEquals(new MessageContent.Text("done"), recorded.content());
    }

    @Test
    void anAssistantTurnKeepsItsTextAndCallsInTheModelsOrder() {
        Round round = new Round("a2");
        round.text.append("Working on it");
        round.startToolCall(1, "c4", "second", new java.util.ArrayList<>()).arguments.append("{\"x\":1}");
        round.startToolCall(0, "c3", "first", new java.util.ArrayList<>());
        Transcript transcript = new Transcript(List.of(ASK));

        transcript.addAssistantTurn(round);

        Message.Assistant turn = (Message.Assistant) transcript.messages().get(1);
        assertEquals("Working on it", turn.content());
        assertEquals(List.of("c3", "c4"), turn.toolCalls().stream().map(ToolCall::id).toList());
        assertEquals(List.of("{}", "{\"x\":1}"), turn.toolCalls().stream().map(c -> c.function().arguments()).toList());
    }
}
