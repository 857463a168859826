package dev.aguistate.run;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.protocol.Context;
import dev.aguistate.protocol.Message;
import dev.aguistate.state.State;
import dev.aguistate.state.StatePrompt;
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

/**
 * The LLM request of each round: the agent's instructions, the state message, the client's {@code context}, the
 * conversation within the context window, then what the round's kind asks for (the tools, the state's JSON
 * schema as the response format, or the summary prompt).
 */
final class ChatRequests {

    static final String STATE_OUTPUT_PROMPT = "Respond with the complete new state as a JSON object that matches "
            + "the given schema, keeping what the user did not ask to change. Respond with the JSON only.";
    /** The C# AG-UI sample's second call. */
    static final String SUMMARY_PROMPT = "Please provide a concise summary of the state changes in at most two sentences.";

    private final AgentDefinition agent;
    private final StatePrompt statePrompt;
    private final ContextWindow window;
    private final List<Context> context;
    private final OfferedTools tools;

    ChatRequests(AgentDefinition agent, StatePrompt statePrompt, ContextWindow window, List<Context> context,
                 OfferedTools tools) {
        this.agent = agent;
        this.statePrompt = statePrompt;
        this.window = window;
        this.context = context;
        this.tools = tools;
    }

    /**
     * @param state        the run's state now, or null when the agent keeps none
     * @param messageTimes when each stored message first reached the server, for the context window
     */
    ChatRequest forRound(RoundKind kind, State state, List<Message> transcript, Map<String, Instant> messageTimes) {
        List<ChatMessage> messages = new ArrayList<>();
        if (!agent.instructions().isBlank()) {
            messages.add(SystemMessage.from(agent.instructions()));
        }
        if (state != null) {
            statePrompt.message(state).map(SystemMessage::from).ifPresent(messages::add);
        }
        SystemMessage contextMessage = ConversationMapper.contextMessage(context);
        if (contextMessage != null) {
            messages.add(contextMessage);
        }
        messages.addAll(ConversationMapper.toChatMessages(window.select(transcript, messageTimes, Instant.now())));
        return switch (kind) {
            case STATE_OUTPUT -> {
                messages.add(SystemMessage.from(STATE_OUTPUT_PROMPT));
                yield ChatRequest.builder().messages(messages).responseFormat(ResponseFormat.builder()
                        .type(ResponseFormatType.JSON)
                        .jsonSchema(JsonSchema.builder().name("state")
                                .rootElement(JsonRawSchema.from(agent.state().toJsonSchema().toString())).build())
                        .build()).build();
            }
            case SUMMARY -> {
                messages.add(SystemMessage.from(SUMMARY_PROMPT));
                yield ChatRequest.builder().messages(messages).build();
            }
            case TOOLS -> ChatRequest.builder().messages(messages).toolSpecifications(tools.specifications()).build();
        };
    }
}
