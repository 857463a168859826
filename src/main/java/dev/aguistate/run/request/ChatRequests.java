package dev.aguistate.run.request;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.protocol.Context;
import dev.aguistate.protocol.Message;
import dev.aguistate.state.State;
import dev.aguistate.state.StatePrompt;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The LLM request of each round: the agent's instructions, the state message, the client's {@code context}, the
 * thread's summary of its earlier conversation if it has one, the conversation after it within the context window
 * and the token budget, then what the round's kind asks for (the tools, the state's JSON schema as the response
 * format, or the summary prompt). Each request's estimate is compared with the tokens the upstream reports for it
 * ({@link #reported}), which calibrates the next ones.
 */
public final class ChatRequests {

    static final String STATE_OUTPUT_PROMPT = "Respond with the complete new state as a JSON object that matches "
            + "the given schema, keeping what the user did not ask to change. Respond with the JSON only.";
    /** The C# AG-UI sample's second call. */
    public static final String SUMMARY_PROMPT = "Please provide a concise summary of the state changes in at most two sentences.";

    private static final Logger LOG = Logger.getLogger(ChatRequests.class);

    private final AgentDefinition agent;
    private final StatePrompt statePrompt;
    private final ContextWindow window;
    private final TokenBudget budget;
    private final PriorSummary summary;
    private final List<Context> context;
    private final List<ToolSpecification> tools;
    /** The latest request's estimate, before calibration; 0 when nothing was counted. */
    private int lastEstimate;

    /** @param summary the thread's summary, or null */
    public ChatRequests(AgentDefinition agent, StatePrompt statePrompt, ContextWindow window, TokenBudget budget,
                 PriorSummary summary, List<Context> context, List<ToolSpecification> tools) {
        this.agent = agent;
        this.statePrompt = statePrompt;
        this.window = window;
        this.budget = budget;
        this.summary = summary;
        this.context = context;
        this.tools = tools;
    }

    /**
     * @param state        the run's state now, or null when the agent keeps none
     * @param messageTimes when each stored message first reached the server, for the context window
     */
    public ChatRequest forRound(RoundKind kind, State state, List<Message> transcript, Map<String, Instant> messageTimes) {
        List<ChatMessage> head = new ArrayList<>();
        if (!agent.instructions().isBlank()) {
            head.add(SystemMessage.from(agent.instructions()));
        }
        if (state != null) {
            statePrompt.message(state).map(SystemMessage::from).ifPresent(head::add);
        }
        SystemMessage contextMessage = ConversationMapper.contextMessage(context);
        if (contextMessage != null) {
            head.add(contextMessage);
        }
        List<Message> uncovered = summary == null ? null : summary.uncovered(transcript);
        if (uncovered != null) {
            head.add(SystemMessage.from(summary.message()));
        }
        List<ChatMessage> tail = switch (kind) {
            case STATE_OUTPUT -> List.of(SystemMessage.from(STATE_OUTPUT_PROMPT));
            case SUMMARY -> List.of(SystemMessage.from(SUMMARY_PROMPT));
            case TOOLS -> List.of();
        };
        List<ChatMessage> fixed = new ArrayList<>(head);
        fixed.addAll(tail);
        TokenBudget.Fitted fitted = budget.fit(fixed, otherText(kind),
                window.select(uncovered != null ? uncovered : transcript, messageTimes, Instant.now()),
                uncovered == null);
        lastEstimate = fitted.estimatedTokens();
        if (fitted.droppedMessages() > 0) {
            LOG.debugf("%d oldest messages left out to fit %d input tokens (about %d sent)", fitted.droppedMessages(),
                    budget.maxInputTokens(), budget.calibration().calibrated(fitted.estimatedTokens()));
        }
        List<ChatMessage> messages = new ArrayList<>(head);
        messages.addAll(fitted.messages());
        messages.addAll(tail);
        return switch (kind) {
            case STATE_OUTPUT -> ChatRequest.builder().messages(messages).responseFormat(ResponseFormat.builder()
                    .type(ResponseFormatType.JSON)
                    .jsonSchema(JsonSchema.builder().name("state")
                            .rootElement(JsonRawSchema.from(stateSchema())).build())
                    .build()).build();
            case SUMMARY -> ChatRequest.builder().messages(messages).build();
            case TOOLS -> ChatRequest.builder().messages(messages).toolSpecifications(tools).build();
        };
    }

    /** What the model reads besides the messages, for the budget: tool definitions or the response schema. */
    private String otherText(RoundKind kind) {
        if (!budget.limited()) {
            return "";
        }
        return switch (kind) {
            case STATE_OUTPUT -> stateSchema();
            case SUMMARY -> "";
            case TOOLS -> tools.stream()
                    .map(spec -> spec.name() + " " + spec.description() + " " + spec.parameters())
                    .collect(Collectors.joining("\n"));
        };
    }

    private String stateSchema() {
        return agent.state().toJsonSchema().toString();
    }

    /** The upstream's count of the latest request's input tokens, which calibrates the next estimates. */
    public void reported(int inputTokens) {
        if (lastEstimate > 0) {
            budget.calibration().observe(lastEstimate, inputTokens);
        }
    }
}
