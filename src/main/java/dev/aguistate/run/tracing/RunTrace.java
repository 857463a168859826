package dev.aguistate.run.tracing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.llm.FinishReason;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.ModelFailure;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.tools.ToolOutcome;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * One run's spans, with the OpenTelemetry GenAI semantic conventions: {@code invoke_agent {agent}} for the run,
 * a {@code chat {model}} child per LLM call, and an {@code execute_tool {tool}} child of the call that asked for the
 * tool (of the run's span for tools a confirmation approved). Every span carries the thread as
 * {@code gen_ai.conversation.id} and the run and thread ids; failures carry our stable error code as
 * {@code error.type}.
 *
 * <p>The run moves between threads (LLM callbacks, worker pools, store futures), so parents are passed explicitly,
 * never taken from a thread-local current context. Its steps are serial ({@link Run}): {@link #chat} happens-before
 * the tools of that round, which only read {@link #chatContext}.
 */
public final class RunTrace {

    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    static final AttributeKey<String> AGENT_NAME = AttributeKey.stringKey("gen_ai.agent.name");
    static final AttributeKey<String> CONVERSATION = AttributeKey.stringKey("gen_ai.conversation.id");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<List<String>> FINISH_REASONS = AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    static final AttributeKey<String> INPUT_MESSAGES = AttributeKey.stringKey("gen_ai.input.messages");
    static final AttributeKey<String> OUTPUT_MESSAGES = AttributeKey.stringKey("gen_ai.output.messages");
    static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    static final AttributeKey<String> TOOL_TYPE = AttributeKey.stringKey("gen_ai.tool.type");
    static final AttributeKey<String> TOOL_ARGUMENTS = AttributeKey.stringKey("gen_ai.tool.call.arguments");
    static final AttributeKey<String> TOOL_RESULT = AttributeKey.stringKey("gen_ai.tool.call.result");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("agui.run.id");
    static final AttributeKey<String> THREAD_ID = AttributeKey.stringKey("agui.thread.id");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("agui.run.outcome");
    static final AttributeKey<String> TOOL_OUTCOME = AttributeKey.stringKey("agui.tool.outcome");

    private final Tracer tracer;
    private final boolean captureContent;
    private final String provider;
    private final String threadId;
    private final String runId;
    private final Span span;
    private final Context runContext;
    /** The parent of the current round's tools: its chat span, or the run's before any chat. */
    private volatile Context chatContext;

    RunTrace(Tracer tracer, boolean captureContent, String agent, RunAgentInput input, String provider,
             Context parent) {
        this.tracer = tracer;
        this.captureContent = captureContent;
        this.provider = provider;
        this.threadId = input.threadId();
        this.runId = input.runId();
        this.span = ids(tracer.spanBuilder("invoke_agent " + agent).setParent(parent).setSpanKind(SpanKind.INTERNAL)
                .setAttribute(OPERATION, "invoke_agent").setAttribute(AGENT_NAME, agent)).startSpan();
        this.runContext = parent.with(span);
        this.chatContext = runContext;
    }

    private SpanBuilder ids(SpanBuilder builder) {
        return builder.setAttribute(PROVIDER, provider).setAttribute(CONVERSATION, threadId)
                .setAttribute(THREAD_ID, threadId).setAttribute(RUN_ID, runId);
    }

    /**
     * What RUN_STARTED carries in its {@code metadata}: {@code {"trace":{"traceId","spanId"}}} naming the run's span,
     * so a page can attach feedback to the server's trace; null when the span is not recorded (tracing off, or this
     * trace not sampled).
     */
    public JsonNode startedMetadata() {
        SpanContext context = span.getSpanContext();
        if (!span.isRecording() || !context.isSampled()) {
            return null;
        }
        ObjectNode metadata = JsonNodeFactory.instance.objectNode();
        metadata.putObject("trace").put("traceId", context.getTraceId()).put("spanId", context.getSpanId());
        return metadata;
    }

    /** Starts the span of one LLM call; the round's tools become its children. */
    public Chat chat(String model, ChatRequest request) {
        Span chat = ids(tracer.spanBuilder("chat " + model).setParent(runContext).setSpanKind(SpanKind.CLIENT)
                .setAttribute(OPERATION, "chat").setAttribute(REQUEST_MODEL, model)).startSpan();
        if (captureContent && chat.isRecording()) {
            chat.setAttribute(INPUT_MESSAGES, ChatMessageSerializer.messagesToJson(request.messages()));
        }
        chatContext = runContext.with(chat);
        return new Chat(chat);
    }

    /** Starts the span of one backend tool call, as a child of the LLM call that asked for it. */
    public Tool tool(String callId, String name, String arguments) {
        Context parent = chatContext;
        Span tool = ids(tracer.spanBuilder("execute_tool " + name).setParent(parent)
                .setSpanKind(SpanKind.INTERNAL).setAttribute(OPERATION, "execute_tool")
                .setAttribute(TOOL_NAME, name).setAttribute(TOOL_CALL_ID, callId)
                .setAttribute(TOOL_TYPE, "function")).startSpan();
        if (captureContent && tool.isRecording()) {
            tool.setAttribute(TOOL_ARGUMENTS, arguments);
        }
        return new Tool(tool, parent);
    }

    /** The run failed with this stable code. */
    public void failed(String code) {
        fail(span, code);
    }

    /** Ends the run's span; {@code outcome} is success, error or cancelled. */
    public void ended(String outcome) {
        span.setAttribute(OUTCOME, outcome);
        span.end();
    }

    private static void fail(Span span, String code) {
        span.setAttribute(ERROR_TYPE, code);
        span.setStatus(StatusCode.ERROR, code);
    }

    /** The span of one LLM call. */
    public final class Chat {

        private final Span span;

        private Chat(Span span) {
            this.span = span;
        }

        /** The response completed: its model, token usage and finish reason. */
        public void completed(ModelEvent.Completed completed) {
            if (completed.usage() != null) {
                if (completed.usage().model() != null) {
                    span.setAttribute(RESPONSE_MODEL, completed.usage().model());
                }
                if (completed.usage().inputTokens() != null) {
                    span.setAttribute(INPUT_TOKENS, completed.usage().inputTokens().longValue());
                }
                if (completed.usage().outputTokens() != null) {
                    span.setAttribute(OUTPUT_TOKENS, completed.usage().outputTokens().longValue());
                }
            }
            if (completed.finishReason() != null) {
                span.setAttribute(FINISH_REASONS, List.of(finishReason(completed.finishReason())));
            }
        }

        /**
         * Ends the span: failed with the call's stable code, cancelled (the run stopped), or with its answer, which
         * is asked for only when content is captured.
         */
        public void ended(Throwable failure, boolean cancelled, Supplier<Message.Assistant> answer) {
            if (failure != null) {
                fail(span, failure instanceof ModelFailure model ? model.kind().code() : "llm_error");
            } else if (cancelled) {
                span.setAttribute(ERROR_TYPE, "cancelled");
            } else if (captureContent && span.isRecording()) {
                span.setAttribute(OUTPUT_MESSAGES, outputMessages(answer.get()));
            }
            span.end();
        }
    }

    /** The span of one backend tool call. */
    public final class Tool {

        private final Span span;
        private final Context context;

        private Tool(Span span, Context parent) {
            this.span = span;
            this.context = parent.with(span);
        }

        /** The span as the parent of what the tool does (an MCP call adds its attributes and passes it on). */
        public Context context() {
            return context;
        }

        /** The run stopped while the tool ran. */
        public void cancelled() {
            span.setAttribute(ERROR_TYPE, "cancelled");
            span.end();
        }

        /**
         * The call waits for the user's answer to a sub-agent's question, with no result: a later run resumes it
         * under a span of its own.
         */
        public void suspended() {
            span.setAttribute(TOOL_OUTCOME, "suspended");
            span.end();
        }

        public void ended(ToolOutcome outcome) {
            if (outcome instanceof ToolOutcome.Failure failure) {
                fail(span, failure.failure().kind().name().toLowerCase(Locale.ROOT));
            }
            if (captureContent && span.isRecording()) {
                span.setAttribute(TOOL_RESULT, outcome.content().text());
            }
            span.end();
        }
    }

    /** The semantic conventions' names: {@code stop}, {@code tool_calls}, {@code length}; ours otherwise. */
    private static String finishReason(FinishReason reason) {
        return reason == FinishReason.OTHER ? "other" : reason.name().toLowerCase(Locale.ROOT);
    }

    /** The answer as the conventions' output messages: one assistant message of text and tool-call parts. */
    private static String outputMessages(Message.Assistant answer) {
        ObjectNode message = JsonNodeFactory.instance.objectNode().put("role", "assistant");
        ArrayNode parts = message.putArray("parts");
        if (answer.content() != null && !answer.content().isEmpty()) {
            parts.addObject().put("type", "text").put("content", answer.content());
        }
        answer.toolCalls().forEach(call -> parts.addObject().put("type", "tool_call").put("id", call.id())
                .put("name", call.function().name()).put("arguments", call.function().arguments()));
        return JsonNodeFactory.instance.arrayNode().add(message).toString();
    }
}
