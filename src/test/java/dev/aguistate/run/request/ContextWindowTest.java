package dev.aguistate.run.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ToolCall;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class ContextWindowTest {

    private static final List<Message> HISTORY = List.of(
            new Message.User("u1", "Plan my trip to Lisbon"),
            new Message.Assistant("a1", "Sure.", null),
            new Message.User("u2", "Check the weather"),
            new Message.Assistant("a2", null, List.of(new ToolCall("c1", "get_weather", "{}"))),
            new Message.Tool("t1", "sunny", "c1"),
            new Message.Assistant("a3", "It is sunny.", null),
            new Message.User("u3", "Great, book it"));

    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");

    /** u1..a1 arrived two days ago, u2..t1 three hours ago, a3 now and u3 is arriving (the store lacks it). */
    private static final Map<String, Instant> TIMES = Map.of(
            "u1", NOW.minus(Duration.ofDays(2)), "a1", NOW.minus(Duration.ofDays(2)),
            "u2", NOW.minus(Duration.ofHours(3)), "a2", NOW.minus(Duration.ofHours(3)),
            "t1", NOW.minus(Duration.ofHours(3)), "a3", NOW);

    @Test
    void noLimitOrAShortConversationSendsEverything() {
        assertSame(HISTORY, byCount(0).select(HISTORY, TIMES, NOW));
        assertSame(HISTORY, byCount(7).select(HISTORY, TIMES, NOW));
        assertSame(HISTORY, byAge(Duration.ofDays(3)).select(HISTORY, TIMES, NOW));
    }

    @Test
    void theRecentMessagesAndTheFirstUserMessageAreSent() {
        assertEquals(List.of("u1", "a3", "u3"), ids(byCount(3).select(HISTORY, TIMES, NOW)));
        assertEquals(List.of("u1", "a2", "t1", "a3", "u3"), ids(byCount(5).select(HISTORY, TIMES, NOW)));
    }

    @Test
    void aToolResultIsNeverSentWithoutItsCall() {
        assertEquals(List.of("u1", "a3", "u3"), ids(byCount(4).select(HISTORY, TIMES, NOW)),
                "the window would have started at t1, whose call a2 was cut");
    }

    @Test
    void messagesOlderThanTheMaxAgeAreLeftOutButTheFirstUserMessageStays() {
        assertEquals(List.of("u1", "u2", "a2", "t1", "a3", "u3"),
                ids(byAge(Duration.ofDays(1)).select(HISTORY, TIMES, NOW)));
        assertEquals(List.of("u1", "a3", "u3"), ids(byAge(Duration.ofHours(1)).select(HISTORY, TIMES, NOW)));
    }

    @Test
    void aMessageTheStoreHasNotSeenIsNew() {
        Map<String, Instant> onlyTheFirstExchange = Map.of("u1", TIMES.get("u1"), "a1", TIMES.get("a1"));
        assertEquals(List.of("u1", "u2", "a2", "t1", "a3", "u3"),
                ids(byAge(Duration.ofHours(1)).select(HISTORY, onlyTheFirstExchange, NOW)));
    }

    @Test
    void withBothLimitsTheStricterOneDecides() {
        assertEquals(List.of("u1", "a3", "u3"),
                ids(new ContextWindow(3, Duration.ofDays(1)).select(HISTORY, TIMES, NOW)));
        assertEquals(List.of("u1", "a3", "u3"),
                ids(new ContextWindow(6, Duration.ofHours(1)).select(HISTORY, TIMES, NOW)));
    }

    private static ContextWindow byCount(int maxMessages) {
        return new ContextWindow(maxMessages, null);
    }

    private static ContextWindow byAge(Duration maxAge) {
        return new ContextWindow(0, maxAge);
    }

    private static List<String> ids(List<Message> messages) {
        return messages.stream().map(Message::id).toList();
    }
}
