package dev.aguistate.run.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ToolCall;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class ConversationMapperTest {

    /**
     * A thread an older server stored with an empty assistant message after a frontend tool call (issue 25): the
     * model gets the call's result last, not an empty turn of its own, which made it greet instead of answering.
     */
    @Test
    void anAssistantMessageWithNothingForTheModelIsLeftOut() {
        List<Message> stored = List.of(
                new Message.User("u1", "Blue please"),
                new Message.Assistant("a1", null, List.of(new ToolCall("c1", "change_background", "{}"))),
                new Message.Tool("t1", "Background changed to blue.", "c1"),
                new Message.Assistant("a2", null, List.of()),
                new Message.Assistant("a3", "", null));

        List<ChatMessage> sent = ConversationMapper.toChatMessages(stored);

        assertEquals(List.of(UserMessage.class, AiMessage.class, ToolExecutionResultMessage.class),
                sent.stream().map(Object::getClass).toList(), sent.toString());
    }
}
