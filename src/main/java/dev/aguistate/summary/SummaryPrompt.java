package dev.aguistate.summary;

import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ToolCall;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.List;

/**
 * The summarizer's request: its instructions, the summary so far, and the new messages as a plain transcript (the
 * model reads about them, it does not continue them, so tool calls need no pairing). System and developer
 * messages are left out: the LLM always gets them as they are.
 */
final class SummaryPrompt {

    static final String INSTRUCTIONS = """
            You keep a running summary of a conversation between a user and an AI assistant, so that the assistant \
            can continue it without the earlier messages. Update the summary with the new messages. Keep what \
            matters later: the user's original request and goals, decisions, facts, names, numbers, preferences, \
            results of tool calls, and open questions. Drop pleasantries and repetition. Write in the \
            conversation's language, as short paragraphs or bullet points. Respond with the summary only.""";

    /** A longer message is cut: the summary needs its gist, and the summarizer's own window is bounded. */
    static final int MAX_MESSAGE_CHARS = 4000;

    private SummaryPrompt() {}

    static List<ChatMessage> messages(String previousText, List<Message> newMessages) {
        String request = (previousText == null ? "There is no summary yet." : "The summary so far:\n" + previousText)
                + "\n\nThe new messages:\n" + transcript(newMessages) + "\n\nWrite the updated summary.";
        return List.of(SystemMessage.from(INSTRUCTIONS), UserMessage.from(request));
    }

    /** The messages as lines of text, one paragraph each. */
    static String transcript(List<Message> messages) {
        StringBuilder text = new StringBuilder();
        for (Message message : messages) {
            if (message instanceof Message.User user) {
                line(text, "User", user.content().text());
            } else if (message instanceof Message.Assistant assistant) {
                if (assistant.content() != null && !assistant.content().isEmpty()) {
                    line(text, "Assistant", assistant.content());
                }
                if (assistant.toolCalls() != null) {
                    for (ToolCall call : assistant.toolCalls()) {
                        line(text, "Assistant called tool " + call.function().name(), call.function().arguments());
                    }
                }
            } else if (message instanceof Message.Tool tool) {
                line(text, "Tool result", tool.error() != null ? "error: " + tool.error() : tool.content().text());
            }
        }
        return text.toString();
    }

    private static void line(StringBuilder text, String who, String what) {
        String body = what == null ? "" : what.length() > MAX_MESSAGE_CHARS
                ? what.substring(0, MAX_MESSAGE_CHARS) + " [...]" : what;
        text.append(who).append(": ").append(body).append("\n\n");
    }
}
