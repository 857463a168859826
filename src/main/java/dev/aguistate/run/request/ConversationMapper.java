package dev.aguistate.run.request;

import dev.aguistate.protocol.Context;
import dev.aguistate.protocol.InputContent;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ToolCall;
import dev.aguistate.protocol.MessageContent;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.AudioContent;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The AG-UI conversation as the LLM sees it.
 *
 * <ul>
 *   <li>system and developer messages become system messages; reasoning and activity messages are UI-only;</li>
 *   <li>multimodal parts the OpenAI wire accepts (image, audio, PDF) are passed on, others are described in text;</li>
 *   <li>a part whose bytes are a file handle (AG-UI 1.0 {@code "file"} source, an id a provider issued) is dropped,
 *       as the protocol says a peer that cannot resolve a handle does: langchain4j's OpenAI wire has no file-id
 *       content, so not even an {@code "openai"} handle can be passed on ({@link #fileHandleParts} names them, so
 *       that a run can warn once);</li>
 *   <li>a tool result with content parts: OpenAI tool messages are text only, so the tool message gets the text
 *       parts and a note, and the media parts follow in a user message after the round's tool results (a user
 *       message between the results of one assistant turn would be rejected);</li>
 *   <li>an assistant tool call the client never answered (the user wrote instead of using the tool) gets a
 *       synthetic "not answered" result, because OpenAI-compatible APIs reject unanswered calls;</li>
 *   <li>{@value ToolCall#CONFIRM_CHANGES} calls and their answers are between the server and the user: the
 *       LLM sees the confirmed call's result instead;</li>
 *   <li>a sub-agent's messages ({@code subagentRunId}) are its own conversation, kept for the UI: the LLM sees the
 *       call's result, the sub-agent's answer, instead;</li>
 *   <li>an assistant message with neither text nor a call the LLM sees (one a client sent, or one an older
 *       server stored) is left out: an empty assistant turn makes the model start over instead of answering.</li>
 * </ul>
 */
public final class ConversationMapper {

    static final String UNANSWERED_TOOL_CALL = "The tool call was not answered; the user continued the conversation instead.";
    static final String ATTACHMENTS_FOLLOW = "[The result's attachments follow in the next message.]";

    private ConversationMapper() {}

    static List<ChatMessage> toChatMessages(List<Message> messages) {
        List<ChatMessage> out = new ArrayList<>();
        Map<String, String> unanswered = new LinkedHashMap<>(); // tool call id -> tool name
        Map<String, String> toolNames = new LinkedHashMap<>();
        Set<String> confirmCalls = confirmCalls(messages);
        List<ChatMessage> toolMedia = new ArrayList<>(); // user messages carrying tool results' media parts
        for (Message message : messages) {
            if (message.subagentRunId() != null
                    || message instanceof Message.Tool t && confirmCalls.contains(t.toolCallId())
                    || message instanceof Message.Assistant a && nothingForTheModel(a)) {
                continue;
            }
            if (!(message instanceof Message.Tool)) {
                endToolResults(unanswered, toolMedia, out);
            }
            if (message instanceof Message.System s) {
                addSystem(out, s.content());
            } else if (message instanceof Message.Developer d) {
                addSystem(out, d.content());
            } else if (message instanceof Message.User u) {
                out.add(userMessage(u.content()));
            } else if (message instanceof Message.Assistant a) {
                out.add(aiMessage(a, unanswered, toolNames));
            } else if (message instanceof Message.Tool t) {
                unanswered.remove(t.toolCallId());
                String toolName = toolNames.getOrDefault(t.toolCallId(), "unknown");
                List<InputContent> media = mediaParts(t.content());
                String text = t.error() != null ? "Error: " + t.error()
                        : media.isEmpty() ? t.content().text()
                        : t.content().text().isEmpty() ? ATTACHMENTS_FOLLOW : t.content().text() + "\n" + ATTACHMENTS_FOLLOW;
                out.add(ToolExecutionResultMessage.from(t.toolCallId(), toolName, text));
                if (t.error() == null && !media.isEmpty()) {
                    toolMedia.add(toolMediaMessage(t.toolCallId(), toolName, media));
                }
            }
        }
        endToolResults(unanswered, toolMedia, out);
        return out;
    }

    /** After an assistant turn's tool results: the calls nobody answered, then the media the results carried. */
    private static void endToolResults(Map<String, String> unanswered, List<ChatMessage> toolMedia,
                                       List<ChatMessage> out) {
        answerOpenCalls(unanswered, out);
        out.addAll(toolMedia);
        toolMedia.clear();
    }

    /** The media parts the LLM can be given: every part but text and file handles. */
    private static List<InputContent> mediaParts(MessageContent content) {
        return parts(content).stream()
                .filter(p -> !(p instanceof InputContent.TextPart) && !isFileHandle(p))
                .toList();
    }

    private static List<InputContent> parts(MessageContent content) {
        return content instanceof MessageContent.Parts parts ? parts.parts() : List.of();
    }

    private static boolean isFileHandle(InputContent part) {
        return part instanceof InputContent.MediaPart media && media.source() != null
                && "file".equals(media.source().type());
    }

    /** The file-handle parts of user and tool messages, which the LLM does not get: "document (issued by openai)". */
    public static List<String> fileHandleParts(List<Message> messages) {
        List<String> dropped = new ArrayList<>();
        for (Message message : messages) {
            MessageContent content = message instanceof Message.User u ? u.content()
                    : message instanceof Message.Tool t ? t.content() : null;
            parts(content).stream().filter(ConversationMapper::isFileHandle).map(p -> (InputContent.MediaPart) p)
                    .forEach(p -> dropped.add(p.type() + " (issued by "
                            + (p.source().provider() == null ? "an unnamed provider" : p.source().provider()) + ")"));
        }
        return dropped;
    }

    private static UserMessage toolMediaMessage(String toolCallId, String toolName, List<InputContent> media) {
        List<Content> contents = new ArrayList<>();
        contents.add(TextContent.from("Attachments of the result of tool call " + toolCallId + " (" + toolName + "):"));
        media.forEach(part -> contents.add(content(part)));
        return UserMessage.from(contents);
    }

    private static Set<String> confirmCalls(List<Message> messages) {
        Set<String> ids = new HashSet<>();
        for (Message message : messages) {
            if (message instanceof Message.Assistant a && a.toolCalls() != null) {
                a.toolCalls().stream().filter(ToolCall::confirmsChanges).forEach(c -> ids.add(c.id()));
            }
        }
        return ids;
    }

    /** No text, and no tool call but {@value ToolCall#CONFIRM_CHANGES} ones (or none at all). */
    private static boolean nothingForTheModel(Message.Assistant a) {
        return (a.content() == null || a.content().isEmpty())
                && (a.toolCalls() == null || a.toolCalls().stream().allMatch(ToolCall::confirmsChanges));
    }

    /** The client's {@code context} entries as one system message, or null when there are none. */
    static SystemMessage contextMessage(List<Context> context) {
        if (context.isEmpty()) {
            return null;
        }
        StringBuilder text = new StringBuilder("Context provided by the application:");
        for (Context entry : context) {
            text.append("\n- ").append(entry.description()).append(": ").append(entry.value());
        }
        return SystemMessage.from(text.toString());
    }

    private static void addSystem(List<ChatMessage> out, String text) {
        if (text != null && !text.isBlank()) {
            out.add(SystemMessage.from(text));
        }
    }

    private static void answerOpenCalls(Map<String, String> unanswered, List<ChatMessage> out) {
        unanswered.forEach((id, name) -> out.add(ToolExecutionResultMessage.from(id, name, UNANSWERED_TOOL_CALL)));
        unanswered.clear();
    }

    private static AiMessage aiMessage(Message.Assistant a, Map<String, String> unanswered,
                                       Map<String, String> toolNames) {
        List<ToolExecutionRequest> requests = new ArrayList<>();
        if (a.toolCalls() != null) {
            for (ToolCall call : a.toolCalls()) {
                if (call.confirmsChanges()) {
                    continue;
                }
                String arguments = call.function().arguments();
                requests.add(ToolExecutionRequest.builder().id(call.id()).name(call.function().name())
                        .arguments(arguments == null || arguments.isBlank() ? "{}" : arguments).build());
                unanswered.put(call.id(), call.function().name());
                toolNames.put(call.id(), call.function().name());
            }
        }
        String text = a.content() == null || a.content().isEmpty() ? null : a.content();
        if (requests.isEmpty()) {
            return AiMessage.from(text == null ? "" : text);
        }
        return AiMessage.builder().text(text).toolExecutionRequests(requests).build();
    }

    private static UserMessage userMessage(MessageContent content) {
        if (content instanceof MessageContent.Text text) {
            return UserMessage.from(text.text());
        }
        List<Content> contents = new ArrayList<>();
        for (InputContent part : ((MessageContent.Parts) content).parts()) {
            if (!isFileHandle(part)) {
                contents.add(content(part));
            }
        }
        if (contents.isEmpty()) {
            contents.add(TextContent.from(""));
        }
        return UserMessage.from(contents);
    }

    private static Content content(InputContent part) {
        if (part instanceof InputContent.TextPart text) {
            return TextContent.from(text.text() == null ? "" : text.text());
        }
        if (part instanceof InputContent.MediaPart media) {
            InputContent.Source source = media.source();
            boolean data = source != null && "data".equals(source.type());
            if (source != null && "image".equals(media.type())) {
                return data ? ImageContent.from(source.value(), source.mimeType()) : ImageContent.from(source.value());
            }
            if (data && "audio".equals(media.type())) {
                return AudioContent.from(source.value(), source.mimeType());
            }
            if (data && "application/pdf".equals(source.mimeType())) {
                return PdfFileContent.from(source.value(), source.mimeType());
            }
            return TextContent.from("[" + media.type() + " attachment"
                    + (source != null && !data ? ": " + source.value() : "") + "]");
        }
        InputContent.BinaryPart binary = (InputContent.BinaryPart) part;
        if (binary.mimeType() != null && binary.mimeType().startsWith("image/")) {
            if (binary.data() != null) {
                return ImageContent.from(binary.data(), binary.mimeType());
            }
            if (binary.url() != null) {
                return ImageContent.from(binary.url());
            }
        }
        return TextContent.from("[attachment " + (binary.filename() != null ? binary.filename() : binary.mimeType()) + "]");
    }
}
