package dev.aguistate.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * Every AG-UI event, one record per type, discriminated on the wire by {@code "type"}.
 *
 * <p>Mirrors {@code events.ts} of {@code @ag-ui/core}: components are the wire fields in camelCase; a
 * {@code null} component is an omitted optional field (never written as {@code null}, see {@link AgUiJson}).
 * Free JSON ({@code snapshot}, {@code value}, {@code result}, patch values) is a {@link JsonNode} so that
 * {@code null} inside it survives. The base fields {@code timestamp} and {@code rawEvent}, and {@code metadata}
 * except on {@code RUN_STARTED} (where it carries the run's trace), are not modelled: this server does not produce
 * them and tolerates them on input.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = AgUiEvent.RunStarted.class, name = "RUN_STARTED"),
    @JsonSubTypes.Type(value = AgUiEvent.RunFinished.class, name = "RUN_FINISHED"),
    @JsonSubTypes.Type(value = AgUiEvent.RunError.class, name = "RUN_ERROR"),
    @JsonSubTypes.Type(value = AgUiEvent.StepStarted.class, name = "STEP_STARTED"),
    @JsonSubTypes.Type(value = AgUiEvent.StepFinished.class, name = "STEP_FINISHED"),
    @JsonSubTypes.Type(value = AgUiEvent.TextMessageStart.class, name = "TEXT_MESSAGE_START"),
    @JsonSubTypes.Type(value = AgUiEvent.TextMessageContent.class, name = "TEXT_MESSAGE_CONTENT"),
    @JsonSubTypes.Type(value = AgUiEvent.TextMessageEnd.class, name = "TEXT_MESSAGE_END"),
    @JsonSubTypes.Type(value = AgUiEvent.TextMessageChunk.class, name = "TEXT_MESSAGE_CHUNK"),
    @JsonSubTypes.Type(value = AgUiEvent.ToolCallStart.class, name = "TOOL_CALL_START"),
    @JsonSubTypes.Type(value = AgUiEvent.ToolCallArgs.class, name = "TOOL_CALL_ARGS"),
    @JsonSubTypes.Type(value = AgUiEvent.ToolCallEnd.class, name = "TOOL_CALL_END"),
    @JsonSubTypes.Type(value = AgUiEvent.ToolCallResult.class, name = "TOOL_CALL_RESULT"),
    @JsonSubTypes.Type(value = AgUiEvent.ToolCallChunk.class, name = "TOOL_CALL_CHUNK"),
    @JsonSubTypes.Type(value = AgUiEvent.StateSnapshot.class, name = "STATE_SNAPSHOT"),
    @JsonSubTypes.Type(value = AgUiEvent.StateDelta.class, name = "STATE_DELTA"),
    @JsonSubTypes.Type(value = AgUiEvent.MessagesSnapshot.class, name = "MESSAGES_SNAPSHOT"),
    @JsonSubTypes.Type(value = AgUiEvent.ActivitySnapshot.class, name = "ACTIVITY_SNAPSHOT"),
    @JsonSubTypes.Type(value = AgUiEvent.ActivityDelta.class, name = "ACTIVITY_DELTA"),
    @JsonSubTypes.Type(value = AgUiEvent.Raw.class, name = "RAW"),
    @JsonSubTypes.Type(value = AgUiEvent.Custom.class, name = "CUSTOM"),
    @JsonSubTypes.Type(value = AgUiEvent.ReasoningStart.class, name = "REASONING_START"),
    @JsonSubTypes.Type(value = AgUiEvent.ReasoningMessageStart.class, name = "REASONING_MESSAGE_START"),
    @JsonSubTypes.Type(value = AgUiEvent.ReasoningMessageContent.class, name = "REASONING_MESSAGE_CONTENT"),
    @JsonSubTypes.Type(value = AgUiEvent.ReasoningMessageEnd.class, name = "REASONING_MESSAGE_END"),
    @JsonSubTypes.Type(value = AgUiEvent.ReasoningMessageChunk.class, name = "REASONING_MESSAGE_CHUNK"),
    @JsonSubTypes.Type(value = AgUiEvent.ReasoningEnd.class, name = "REASONING_END"),
    @JsonSubTypes.Type(value = AgUiEvent.ReasoningEncryptedValue.class, name = "REASONING_ENCRYPTED_VALUE"),
    @JsonSubTypes.Type(value = AgUiEvent.SubagentStarted.class, name = "SUBAGENT_STARTED"),
    @JsonSubTypes.Type(value = AgUiEvent.SubagentFinished.class, name = "SUBAGENT_FINISHED"),
    @JsonSubTypes.Type(value = AgUiEvent.SubagentError.class, name = "SUBAGENT_ERROR"),
    @JsonSubTypes.Type(value = AgUiEvent.ThinkingStart.class, name = "THINKING_START"),
    @JsonSubTypes.Type(value = AgUiEvent.ThinkingEnd.class, name = "THINKING_END"),
    @JsonSubTypes.Type(value = AgUiEvent.ThinkingTextMessageStart.class, name = "THINKING_TEXT_MESSAGE_START"),
    @JsonSubTypes.Type(value = AgUiEvent.ThinkingTextMessageContent.class, name = "THINKING_TEXT_MESSAGE_CONTENT"),
    @JsonSubTypes.Type(value = AgUiEvent.ThinkingTextMessageEnd.class, name = "THINKING_TEXT_MESSAGE_END"),
})
public sealed interface AgUiEvent {

    /** The AG-UI version whose events this server produces, stated on every RUN_STARTED. */
    String PROTOCOL_VERSION = "1.0";

    /** The wire discriminator; a test checks it agrees with the {@code @JsonSubTypes} names. */
    @JsonIgnore
    EventType type();

    /**
     * This event as a sub-agent's: the same event carrying {@code subagentRunId} (AG-UI 1.0's attribution), for the
     * events a sub-agent's run streams on its parent's stream. An event already attributed (a nested sub-agent's)
     * keeps its own; an event that cannot be attributed (run-scoped, or one a child never sends on) is returned as is.
     */
    default AgUiEvent attributedTo(String subagentRunId) {
        return this;
    }

    /** Whether this is a run's terminal event: {@code RUN_FINISHED} or {@code RUN_ERROR}, the last of every run. */
    @JsonIgnore
    default boolean endsRun() {
        return type().endsRun();
    }

    // ---- lifecycle ----

    /**
     * {@code protocolVersion} is the version this server produces ({@link #PROTOCOL_VERSION}): the short
     * constructors, which every run of this server uses, state it; the canonical one takes it as given.
     */
    record RunStarted(String threadId, String runId, String protocolVersion, String parentRunId, RunAgentInput input,
                      JsonNode metadata) implements AgUiEvent {
        public RunStarted(String threadId, String runId, String parentRunId, RunAgentInput input) {
            this(threadId, runId, PROTOCOL_VERSION, parentRunId, input, null);
        }
        public RunStarted(String threadId, String runId) { this(threadId, runId, null, null); }
        public EventType type() { return EventType.RUN_STARTED; }
    }

    record RunFinished(String threadId, String runId, JsonNode result, RunOutcome outcome, List<TokenUsage> usage)
            implements AgUiEvent {
        public EventType type() { return EventType.RUN_FINISHED; }
    }

    /** Carries no thread or run id (protocol rule); {@code code} is our stable error code. */
    record RunError(String message, String code, List<TokenUsage> usage) implements AgUiEvent {
        public RunError(String message, String code) { this(message, code, null); }
        public EventType type() { return EventType.RUN_ERROR; }
    }

    record StepStarted(String stepName) implements AgUiEvent {
        public EventType type() { return EventType.STEP_STARTED; }
    }

    record StepFinished(String stepName) implements AgUiEvent {
        public EventType type() { return EventType.STEP_FINISHED; }
    }

    // ---- text messages ----

    /** {@code role} is developer, system, assistant or user (never tool); absent means assistant. */
    record TextMessageStart(String messageId, String role, String name, String subagentRunId) implements AgUiEvent {
        public TextMessageStart(String messageId, String role, String name) { this(messageId, role, name, null); }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new TextMessageStart(messageId, role, name, id); }
        public static TextMessageStart assistant(String messageId) { return new TextMessageStart(messageId, "assistant", null); }
        public EventType type() { return EventType.TEXT_MESSAGE_START; }
    }

    record TextMessageContent(String messageId, String delta, String subagentRunId) implements AgUiEvent {
        public TextMessageContent(String messageId, String delta) { this(messageId, delta, null); }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new TextMessageContent(messageId, delta, id); }
        public TextMessageContent {
            Objects.requireNonNull(delta, "delta");
        }
        public EventType type() { return EventType.TEXT_MESSAGE_CONTENT; }
    }

    record TextMessageEnd(String messageId, String subagentRunId) implements AgUiEvent {
        public TextMessageEnd(String messageId) { this(messageId, null); }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new TextMessageEnd(messageId, id); }
        public EventType type() { return EventType.TEXT_MESSAGE_END; }
    }

    record TextMessageChunk(String messageId, String role, String delta, String name) implements AgUiEvent {
        public EventType type() { return EventType.TEXT_MESSAGE_CHUNK; }
    }

    // ---- tool calls ----

    record ToolCallStart(String toolCallId, String toolCallName, String parentMessageId, String subagentRunId)
            implements AgUiEvent {
        public ToolCallStart(String toolCallId, String toolCallName, String parentMessageId) {
            this(toolCallId, toolCallName, parentMessageId, null);
        }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ToolCallStart(toolCallId, toolCallName, parentMessageId, id); }
        public EventType type() { return EventType.TOOL_CALL_START; }
    }

    /** {@code delta} is a fragment of the arguments' JSON text, not JSON itself. */
    record ToolCallArgs(String toolCallId, String delta, String subagentRunId) implements AgUiEvent {
        public ToolCallArgs(String toolCallId, String delta) { this(toolCallId, delta, null); }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ToolCallArgs(toolCallId, delta, id); }
        public EventType type() { return EventType.TOOL_CALL_ARGS; }
    }

    record ToolCallEnd(String toolCallId, String subagentRunId) implements AgUiEvent {
        public ToolCallEnd(String toolCallId) { this(toolCallId, null); }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ToolCallEnd(toolCallId, id); }
        public EventType type() { return EventType.TOOL_CALL_END; }
    }

    /**
     * {@code content} is a string or (AG-UI 1.0) content parts, like a tool message's; {@code messageId} becomes the
     * id of the client's tool message.
     */
    record ToolCallResult(String messageId, String toolCallId, MessageContent content, String role,
                          String subagentRunId) implements AgUiEvent {
        public ToolCallResult(String messageId, String toolCallId, MessageContent content, String role) {
            this(messageId, toolCallId, content, role, null);
        }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ToolCallResult(messageId, toolCallId, content, role, id); }
        public ToolCallResult(String messageId, String toolCallId, String content) {
            this(messageId, toolCallId, new MessageContent.Text(content), "tool");
        }
        public EventType type() { return EventType.TOOL_CALL_RESULT; }
    }

    record ToolCallChunk(String toolCallId, String toolCallName, String parentMessageId, String delta)
            implements AgUiEvent {
        public EventType type() { return EventType.TOOL_CALL_CHUNK; }
    }

    // ---- state and messages ----

    /** {@code snapshot} is required but may be JSON {@code null}. */
    record StateSnapshot(JsonNode snapshot) implements AgUiEvent {
        public StateSnapshot {
            Objects.requireNonNull(snapshot, "snapshot (use NullNode for JSON null)");
        }
        public EventType type() { return EventType.STATE_SNAPSHOT; }
    }

    /** An RFC 6902 patch against the state the client holds. */
    record StateDelta(List<PatchOperation> delta) implements AgUiEvent {
        public EventType type() { return EventType.STATE_DELTA; }
    }

    /** The complete message list: the client drops local messages missing from it. */
    record MessagesSnapshot(List<Message> messages) implements AgUiEvent {
        public EventType type() { return EventType.MESSAGES_SNAPSHOT; }
    }

    // ---- activity ----

    /** {@code content} is a JSON object; {@code replace} defaults to true on the client. */
    record ActivitySnapshot(String messageId, String activityType, JsonNode content, Boolean replace,
                            String subagentRunId) implements AgUiEvent {
        public ActivitySnapshot(String messageId, String activityType, JsonNode content, Boolean replace) {
            this(messageId, activityType, content, replace, null);
        }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ActivitySnapshot(messageId, activityType, content, replace, id); }
        public EventType type() { return EventType.ACTIVITY_SNAPSHOT; }
    }

    record ActivityDelta(String messageId, String activityType, List<PatchOperation> patch, String subagentRunId)
            implements AgUiEvent {
        public ActivityDelta(String messageId, String activityType, List<PatchOperation> patch) {
            this(messageId, activityType, patch, null);
        }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ActivityDelta(messageId, activityType, patch, id); }
        public EventType type() { return EventType.ACTIVITY_DELTA; }
    }

    // ---- special ----

    record Raw(JsonNode event, String source) implements AgUiEvent {
        public EventType type() { return EventType.RAW; }
    }

    record Custom(String name, JsonNode value) implements AgUiEvent {
        public EventType type() { return EventType.CUSTOM; }
    }

    // ---- reasoning ----

    record ReasoningStart(String messageId, String subagentRunId) implements AgUiEvent {
        public ReasoningStart(String messageId) { this(messageId, null); }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ReasoningStart(messageId, id); }
        public EventType type() { return EventType.REASONING_START; }
    }

    /** {@code role} is always the literal {@code "reasoning"} (required on the wire). */
    record ReasoningMessageStart(String messageId, String role, String subagentRunId) implements AgUiEvent {
        public ReasoningMessageStart {
            role = "reasoning";
        }
        public ReasoningMessageStart(String messageId, String role) { this(messageId, role, null); }
        public ReasoningMessageStart(String messageId) { this(messageId, "reasoning"); }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ReasoningMessageStart(messageId, role, id); }
        public EventType type() { return EventType.REASONING_MESSAGE_START; }
    }

    record ReasoningMessageContent(String messageId, String delta, String subagentRunId) implements AgUiEvent {
        public ReasoningMessageContent(String messageId, String delta) { this(messageId, delta, null); }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ReasoningMessageContent(messageId, delta, id); }
        public EventType type() { return EventType.REASONING_MESSAGE_CONTENT; }
    }

    record ReasoningMessageEnd(String messageId, String subagentRunId) implements AgUiEvent {
        public ReasoningMessageEnd(String messageId) { this(messageId, null); }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ReasoningMessageEnd(messageId, id); }
        public EventType type() { return EventType.REASONING_MESSAGE_END; }
    }

    record ReasoningMessageChunk(String messageId, String delta) implements AgUiEvent {
        public EventType type() { return EventType.REASONING_MESSAGE_CHUNK; }
    }

    record ReasoningEnd(String messageId, String subagentRunId) implements AgUiEvent {
        public ReasoningEnd(String messageId) { this(messageId, null); }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ReasoningEnd(messageId, id); }
        public EventType type() { return EventType.REASONING_END; }
    }

    /** {@code subtype} is {@code "tool-call"} or {@code "message"}; {@code entityId} names that entity. */
    record ReasoningEncryptedValue(String subtype, String entityId, String encryptedValue, String subagentRunId)
            implements AgUiEvent {
        public ReasoningEncryptedValue(String subtype, String entityId, String encryptedValue) {
            this(subtype, entityId, encryptedValue, null);
        }
        public AgUiEvent attributedTo(String id) { return subagentRunId != null ? this : new ReasoningEncryptedValue(subtype, entityId, encryptedValue, id); }
        public EventType type() { return EventType.REASONING_ENCRYPTED_VALUE; }
    }

    // ---- sub-agents (AG-UI 1.0) ----

    /**
     * A sub-agent's run began; what it streams afterwards carries its {@code subagentRunId}. {@code parentToolCallId}
     * is the parent's tool call that runs it; {@code parentSubagentRunId} the sub-agent that called it, when nested.
     */
    record SubagentStarted(String subagentRunId, String name, String description, String parentSubagentRunId,
                           String parentToolCallId, String parentMessageId) implements AgUiEvent {
        public AgUiEvent attributedTo(String id) {
            return parentSubagentRunId != null ? this
                    : new SubagentStarted(subagentRunId, name, description, id, parentToolCallId, parentMessageId);
        }
        public EventType type() { return EventType.SUBAGENT_STARTED; }
    }

    /**
     * A sub-agent's segment of the run ended: completed, {@code result} being its final answer (no {@code outcome}),
     * or suspended waiting for the answers to its interrupts ({@link Suspended}), which a later run carries.
     */
    record SubagentFinished(String subagentRunId, JsonNode result, Suspended outcome) implements AgUiEvent {
        public SubagentFinished(String subagentRunId, JsonNode result) {
            this(subagentRunId, result, null);
        }
        public EventType type() { return EventType.SUBAGENT_FINISHED; }

        /** AG-UI 1.0's {@code {"type":"suspended","interruptIds":[…]}}: the interrupts the sub-agent raised. */
        public record Suspended(String type, List<String> interruptIds) {
            public Suspended(List<String> interruptIds) {
                this("suspended", List.copyOf(interruptIds));
            }
        }
    }

    /** A sub-agent's run failed; the parent run goes on (its LLM reads the failure as the tool's error). */
    record SubagentError(String subagentRunId, String message, String code) implements AgUiEvent {
        public EventType type() { return EventType.SUBAGENT_ERROR; }
    }

    // ---- deprecated thinking events (kept for older clients; the protocol removes them in 1.0) ----

    record ThinkingStart(String title) implements AgUiEvent {
        public EventType type() { return EventType.THINKING_START; }
    }

    record ThinkingEnd() implements AgUiEvent {
        public EventType type() { return EventType.THINKING_END; }
    }

    record ThinkingTextMessageStart() implements AgUiEvent {
        public EventType type() { return EventType.THINKING_TEXT_MESSAGE_START; }
    }

    record ThinkingTextMessageContent(String delta) implements AgUiEvent {
        public EventType type() { return EventType.THINKING_TEXT_MESSAGE_CONTENT; }
    }

    record ThinkingTextMessageEnd() implements AgUiEvent {
        public EventType type() { return EventType.THINKING_TEXT_MESSAGE_END; }
    }
}
