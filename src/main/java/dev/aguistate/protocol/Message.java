package dev.aguistate.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A conversation message, discriminated on {@code "role"}: the seven roles of the protocol.
 * An unknown role is a malformed request. {@code metadata} is an object or absent, never {@code null}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "role")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Message.Developer.class, name = "developer"),
    @JsonSubTypes.Type(value = Message.System.class, name = "system"),
    @JsonSubTypes.Type(value = Message.Assistant.class, name = "assistant"),
    @JsonSubTypes.Type(value = Message.User.class, name = "user"),
    @JsonSubTypes.Type(value = Message.Tool.class, name = "tool"),
    @JsonSubTypes.Type(value = Message.Activity.class, name = "activity"),
    @JsonSubTypes.Type(value = Message.Reasoning.class, name = "reasoning"),
})
public sealed interface Message {

    /**
     * The tool calls of the conversation's last assistant message that no tool message answers: what a thread waits
     * for the client to answer (frontend tools, {@code confirm_changes}). Calls a later user message passed over are
     * not waited for.
     */
    static List<String> openToolCalls(List<Message> conversation) {
        Set<String> answered = new HashSet<>();
        for (int i = conversation.size() - 1; i >= 0; i--) {
            Message message = conversation.get(i);
            if (message.subagentRunId() != null) {
                continue; // a sub-agent's conversation, inside the parent's call
            }
            if (message instanceof Tool tool) {
                answered.add(tool.toolCallId());
            } else if (message instanceof Assistant assistant) {
                return assistant.toolCalls() == null ? List.of() : assistant.toolCalls().stream()
                        .map(ToolCall::id).filter(id -> !answered.contains(id)).toList();
            } else if (!(message instanceof Reasoning || message instanceof Activity)) {
                return List.of();
            }
        }
        return List.of();
    }

    String id();

    @JsonIgnore
    String role();

    /**
     * The sub-agent run that produced the message (AG-UI 1.0's attribution), or null for the thread's own
     * conversation. A sub-agent's messages are kept with the thread for the UI; the parent's LLM never reads them.
     */
    String subagentRunId();

    /** This message as a sub-agent's: carrying {@code subagentRunId}, unless it already carries one (a nested one's). */
    Message attributedTo(String subagentRunId);

    record Developer(String id, String content, String name, String encryptedValue, JsonNode metadata,
                     String subagentRunId) implements Message {
        public Developer(String id, String content, String name, String encryptedValue, JsonNode metadata) {
            this(id, content, name, encryptedValue, metadata, null);
        }
        public Message attributedTo(String run) { return subagentRunId != null ? this : new Developer(id, content, name, encryptedValue, metadata, run); }
        public String role() { return "developer"; }
    }

    record System(String id, String content, String name, String encryptedValue, JsonNode metadata,
                  String subagentRunId) implements Message {
        public System(String id, String content, String name, String encryptedValue, JsonNode metadata) {
            this(id, content, name, encryptedValue, metadata, null);
        }
        public Message attributedTo(String run) { return subagentRunId != null ? this : new System(id, content, name, encryptedValue, metadata, run); }
        public String role() { return "system"; }
    }

    /** {@code content} is absent when the assistant only called tools. */
    record Assistant(String id, String content, List<ToolCall> toolCalls, String name, String encryptedValue,
                     JsonNode metadata, String subagentRunId) implements Message {
        public Assistant(String id, String content, List<ToolCall> toolCalls, String name, String encryptedValue,
                         JsonNode metadata) {
            this(id, content, toolCalls, name, encryptedValue, metadata, null);
        }
        public Message attributedTo(String run) { return subagentRunId != null ? this : new Assistant(id, content, toolCalls, name, encryptedValue, metadata, run); }
        public Assistant(String id, String content, List<ToolCall> toolCalls) {
            this(id, content, toolCalls, null, null, null);
        }
        public String role() { return "assistant"; }
    }

    record User(String id, MessageContent content, String name, String encryptedValue, JsonNode metadata,
                String subagentRunId) implements Message {
        public User(String id, MessageContent content, String name, String encryptedValue, JsonNode metadata) {
            this(id, content, name, encryptedValue, metadata, null);
        }
        public Message attributedTo(String run) { return subagentRunId != null ? this : new User(id, content, name, encryptedValue, metadata, run); }
        public User(String id, String text) { this(id, new MessageContent.Text(text), null, null, null); }
        public String role() { return "user"; }
    }

    /** A tool result, a string or (AG-UI 1.0) content parts; {@code error} is set when the tool failed on the client. */
    record Tool(String id, MessageContent content, String toolCallId, String error, String encryptedValue,
                JsonNode metadata, String subagentRunId) implements Message {
        public Tool(String id, MessageContent content, String toolCallId, String error, String encryptedValue,
                    JsonNode metadata) {
            this(id, content, toolCallId, error, encryptedValue, metadata, null);
        }
        public Message attributedTo(String run) { return subagentRunId != null ? this : new Tool(id, content, toolCallId, error, encryptedValue, metadata, run); }
        public Tool(String id, String content, String toolCallId) {
            this(id, new MessageContent.Text(content), toolCallId, null, null, null);
        }
        public String role() { return "tool"; }
    }

    /** A frontend-rendered activity; {@code content} is a JSON object. Never sent to the LLM. */
    record Activity(String id, String activityType, JsonNode content, JsonNode metadata, String subagentRunId)
            implements Message {
        public Activity(String id, String activityType, JsonNode content, JsonNode metadata) {
            this(id, activityType, content, metadata, null);
        }
        public Message attributedTo(String run) { return subagentRunId != null ? this : new Activity(id, activityType, content, metadata, run); }
        public String role() { return "activity"; }
    }

    record Reasoning(String id, String content, String encryptedValue, JsonNode metadata, String subagentRunId)
            implements Message {
        public Reasoning(String id, String content, String encryptedValue, JsonNode metadata) {
            this(id, content, encryptedValue, metadata, null);
        }
        public Message attributedTo(String run) { return subagentRunId != null ? this : new Reasoning(id, content, encryptedValue, metadata, run); }
        public String role() { return "reasoning"; }
    }
}
