package dev.aguistate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ToolCall;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextWindowTest {

    private static final List<Message> HISTORY = List.of(
            new Message.User("u1", "Plan my trip to Lisbon"),
            new Message.Assistant("a1", "Sure.", null),
            new Message.User("u2", "Check the weather"),
            new Message.Assistant("a2", null, List.of(new ToolCall("c1", "get_weather", "{}"))),
            new Message.Tool("t1", "sunny", "c1"),
            new Message.Assistant("a3", "It is sunny.", null),
            new Message.User("u3", "Great, book it"));

    @Test
    void noLimitOrAShortConversationSendsEverything() {
        assertSame(HISTORY, ContextWindow.select(HISTORY, 0));
        assertSame(HISTORY, ContextWindow.select(HISTORY, 7));
    }

    @Test
    void theRecentMessagesAndTheFirstUserMessageAreSent() {
        assertEquals(List.of("u1", "a3", "u3"), ids(ContextWindow.select(HISTORY, 3)));
        assertEquals(List.of("u1", "a2", "t1", "a3", "u3"), ids(ContextWindow.select(HISTORY, 5)));
    }

    @Test
    void aToolResultIsNeverSentWithoutItsCall() {
        assertEquals(List.of("u1", "a3", "u3"), ids(ContextWindow.select(HISTORY, 4)),
                "the window would have started at t1, whose call a2 was cut");
    }

    private static List<String> ids(List<Message> messages) {
        return messages.stream().map(Message::id).toList();
    }
}
