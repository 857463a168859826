package dev.aguistate.run.request;

import dev.aguistate.llm.TokenCalibration;
import dev.aguistate.llm.TokenEstimator;
import dev.aguistate.protocol.Message;
import dev.langchain4j.data.message.ChatMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * Fits a round's conversation into the agent's input budget ({@code agui.run.context.max-input-tokens}, the agent's
 * own, or the model's window less its output and a margin): what the request costs besides the conversation
 * (instructions, the state message, context, summary, tool definitions) is counted first, then the oldest messages
 * go until the calibrated estimate fits.
 *
 * <p>Messages go in <em>units</em> that the LLM must see whole: an assistant message with tool calls together with
 * the tool results that follow it (OpenAI-compatible APIs reject a call without its result and a result without
 * its call), any other message on its own. Never dropped: system and developer messages, the first user message
 * (it usually states the task; unless a summary replaced it), the latest user message and the latest unit (what the
 * model answers now). When even those do not fit, the request goes as it is and the upstream decides.
 *
 * @param maxInputTokens 0 for no budget: nothing is counted
 * @param counted        the units counted before, by any run
 */
public record TokenBudget(int maxInputTokens, TokenEstimator estimator, TokenCalibration calibration, CountedUnits counted) {

    public static final TokenBudget NONE = new TokenBudget(0, null, null, null);

    /**
     * The conversation as the LLM gets it.
     *
     * @param estimatedTokens the whole request's estimate before calibration (0 without a budget)
     */
    record Fitted(List<ChatMessage> messages, int estimatedTokens, int droppedMessages) {}

    /** One or more messages the LLM sees together or not at all. */
    private record Unit(List<Message> messages, List<ChatMessage> chat, int tokens) {}

    boolean limited() {
        return maxInputTokens > 0;
    }

    /**
     * @param fixed          the request's other messages
     * @param otherText      the request's other text the model reads: tool definitions, a response schema
     * @param keepFirstUser  whether the first user message stays (no summary took its place)
     */
    Fitted fit(List<ChatMessage> fixed, String otherText, List<Message> conversation, boolean keepFirstUser) {
        if (!limited()) {
            return new Fitted(ConversationMapper.toChatMessages(conversation), 0, 0);
        }
        List<Unit> units = units(conversation);
        int total = estimator.messages(fixed) + estimator.text(otherText);
        for (Unit unit : units) {
            total += unit.tokens();
        }
        boolean[] dropped = new boolean[units.size()];
        int droppedMessages = 0;
        int firstUser = keepFirstUser ? firstUser(units) : -1;
        int lastUser = lastUser(units);
        for (int i = 0; i < units.size() - 1 && calibration.calibrated(total) > maxInputTokens; i++) {
            Message first = units.get(i).messages().get(0);
            if (i == firstUser || i == lastUser || first instanceof Message.System || first instanceof Message.Developer) {
                continue;
            }
            dropped[i] = true;
            total -= units.get(i).tokens();
            droppedMessages += units.get(i).messages().size();
        }
        List<ChatMessage> kept = new ArrayList<>();
        for (int i = 0; i < units.size(); i++) {
            if (!dropped[i]) {
                kept.addAll(units.get(i).chat());
            }
        }
        return new Fitted(kept, total, droppedMessages);
    }

    /** A tool message joins the unit before it (its call's); any other message starts a unit. */
    private List<Unit> units(List<Message> conversation) {
        List<List<Message>> groups = new ArrayList<>();
        for (Message message : conversation) {
            if (message instanceof Message.Tool && !groups.isEmpty()) {
                groups.get(groups.size() - 1).add(message);
            } else {
                groups.add(new ArrayList<>(List.of(message)));
            }
        }
        List<Unit> units = new ArrayList<>(groups.size());
        for (List<Message> group : groups) {
            List<ChatMessage> chat = ConversationMapper.toChatMessages(group);
            units.add(new Unit(group, chat, counted.tokens(group, () -> chat.stream().mapToInt(estimator::message).sum())));
        }
        return units;
    }

    private static int firstUser(List<Unit> units) {
        for (int i = 0; i < units.size(); i++) {
            if (units.get(i).messages().get(0) instanceof Message.User) {
                return i;
            }
        }
        return -1;
    }

    private static int lastUser(List<Unit> units) {
        for (int i = units.size() - 1; i >= 0; i--) {
            if (units.get(i).messages().get(0) instanceof Message.User) {
                return i;
            }
        }
        return -1;
    }
}
