package dev.aguistate.run.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.llm.TokenCalibration;
import dev.aguistate.llm.TokenEstimator;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ToolCall;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class TokenBudgetTest {

    private static final TokenEstimator ESTIMATOR = TokenEstimator.forModel("gpt-4o");
    private static final List<ChatMessage> INSTRUCTIONS = List.of(SystemMessage.from("You plan trips."));

    /** A system message, then 60 turns; every third turn the assistant calls two tools at once. */
    private static List<Message> conversation() {
        List<Message> messages = new ArrayList<>();
        messages.add(new Message.System("s0", "Answer in English.", null, null, null));
        for (int turn = 0; turn < 60; turn++) {
            messages.add(new Message.User("u" + turn, "Question number " + turn + " about the trip to Lisbon, "
                    + "with some detail so that it costs a few tokens."));
            if (turn % 3 == 1) {
                messages.add(new Message.Assistant("c" + turn, null, List.of(
                        new ToolCall("call-a" + turn, "get_weather", "{\"city\":\"Lisbon\",\"day\":" + turn + "}"),
                        new ToolCall("call-b" + turn, "get_hotels", "{\"city\":\"Lisbon\"}"))));
                messages.add(new Message.Tool("ta" + turn, "sunny and 24 degrees on day " + turn, "call-a" + turn));
                messages.add(new Message.Tool("tb" + turn, "three hotels with rooms free on day " + turn, "call-b" + turn));
            }
            messages.add(new Message.Assistant("a" + turn, "Answer number " + turn + ": the trip goes on nicely.", null));
        }
        return messages;
    }

    private static TokenBudget budget(int tokens, TokenCalibration calibration) {
        return new TokenBudget(tokens, ESTIMATOR, calibration, new CountedUnits(1000));
    }

    @Test
    void withoutABudgetEverythingGoesAndNothingIsCounted() {
        TokenBudget.Fitted fitted = TokenBudget.NONE.fit(INSTRUCTIONS, "", conversation(), true);

        assertEquals(ConversationMapper.toChatMessages(conversation()), fitted.messages());
        assertEquals(0, fitted.estimatedTokens());
    }

    @Test
    void theOldestTurnsGoUntilTheRequestFitsAndWhatMustStayStays() {
        List<Message> conversation = conversation();
        int everything = ESTIMATOR.messages(INSTRUCTIONS) + ESTIMATOR.messages(
                ConversationMapper.toChatMessages(conversation)) - 3;
        for (int max : new int[] {600, 1200, 2500}) {
            TokenBudget.Fitted fitted = budget(max, new TokenCalibration()).fit(INSTRUCTIONS, "", conversation, true);

            List<ChatMessage> all = new ArrayList<>(INSTRUCTIONS);
            all.addAll(fitted.messages());
            assertTrue(everything > max, "the whole conversation would not fit " + max);
            assertTrue(ESTIMATOR.messages(all) <= max, "within " + max + ": " + ESTIMATOR.messages(all));
            assertTrue(fitted.droppedMessages() > 0);
            assertEquals("Answer in English.", ((SystemMessage) fitted.messages().get(0)).text(), "system messages stay");
            assertTrue(((UserMessage) fitted.messages().get(1)).singleText().startsWith("Question number 0 "),
                    "the first user message stays");
            assertTrue(((UserMessage) fitted.messages().get(fitted.messages().size() - 2)).singleText()
                    .startsWith("Question number 59 "), "the latest turn stays");
            assertToolCallsAnswered(fitted.messages());
        }
    }

    @Test
    void aToolCallAndItsResultsAreKeptOrDroppedTogetherAtEveryBudget() {
        List<Message> conversation = conversation();
        for (int max = 100; max < 4000; max += 37) {
            assertToolCallsAnswered(budget(max, new TokenCalibration()).fit(INSTRUCTIONS, "", conversation, true)
                    .messages());
        }
    }

    @Test
    void anUpstreamThatCountsTwiceAsManyTokensGetsAboutHalfAsMuch() {
        TokenCalibration doubled = new TokenCalibration();
        for (int i = 0; i < 30; i++) {
            doubled.observe(1000, 2000);
        }
        TokenBudget.Fitted plain = budget(2000, new TokenCalibration()).fit(INSTRUCTIONS, "", conversation(), true);
        TokenBudget.Fitted calibrated = budget(2000, doubled).fit(INSTRUCTIONS, "", conversation(), true);

        assertTrue(calibrated.estimatedTokens() <= 1000, "estimate " + calibrated.estimatedTokens());
        assertTrue(plain.estimatedTokens() > 1500, "estimate " + plain.estimatedTokens());
    }

    @Test
    void whatOtherwiseGoesInTheRequestCountsToo() {
        String tools = "x ".repeat(1000);
        TokenBudget.Fitted without = budget(2500, new TokenCalibration()).fit(INSTRUCTIONS, "", conversation(), true);
        TokenBudget.Fitted with = budget(2500, new TokenCalibration()).fit(INSTRUCTIONS, tools, conversation(), true);

        assertTrue(with.droppedMessages() > without.droppedMessages());
        assertTrue(with.estimatedTokens() <= 2500);
    }

    @Test
    void withASummaryTheFirstUserMessageMayGo() {
        TokenBudget.Fitted fitted = budget(600, new TokenCalibration()).fit(INSTRUCTIONS, "", conversation(), false);

        assertTrue(fitted.messages().stream().noneMatch(m -> m instanceof UserMessage u
                && u.singleText().startsWith("Question number 0 ")));
    }

    /** Every call is answered right after its assistant message, and every result answers a call before it. */
    static void assertToolCallsAnswered(List<ChatMessage> messages) {
        Set<String> open = new HashSet<>();
        for (ChatMessage message : messages) {
            if (message instanceof ToolExecutionResultMessage result) {
                assertTrue(open.remove(result.id()), "result " + result.id() + " answers an open call");
                continue;
            }
            assertTrue(open.isEmpty(), "calls " + open + " answered before the next message");
            if (message instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
                ai.toolExecutionRequests().forEach(call -> open.add(call.id()));
            }
        }
        assertTrue(open.isEmpty(), "calls " + open + " answered");
    }
}
