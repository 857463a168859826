package dev.aguistate.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.Multitask;
import dev.aguistate.llm.LlmConfig;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.run.RunConfig;
import dev.aguistate.state.PredictiveMapping;
import dev.aguistate.tools.BackendTool;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * AG-UI 1.0's {@code AgentCapabilities} for one agent, as {@code GET /agui/{agent}/capabilities} answers it (the
 * convention of the ADK middleware and its TypeScript client) and {@code GET /agui/agents} shows it. Every category
 * states what this server does for the agent; a field this server cannot know is left out, which AG-UI reads as
 * "unknown". What the standard categories have no field for rides in {@code custom}, the spec's place for it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentCapabilities(Identity identity, Transport transport, Tools tools, Output output, State state,
                                MultiAgent multiAgent, Reasoning reasoning, Multimodal multimodal, Execution execution,
                                HumanInTheLoop humanInTheLoop, Map<String, Object> custom) {

    /** {@code identity.type}: the platform powering the agent. */
    static final String PLATFORM = "agui-state-server";

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Identity(String name, String type, String description, Map<String, Object> metadata) {}

    public record Transport(boolean streaming, boolean websocket, boolean httpBinary, boolean pushNotifications,
                            boolean resumable) {}

    public record Tools(boolean supported, List<ToolItem> items, boolean parallelCalls, boolean clientProvided) {}

    /** A backend tool as the model sees it: the arguments the server fills from state are not shown. */
    public record ToolItem(String name, String description, JsonNode parameters) {

        static ToolItem of(BackendTool tool) {
            return new ToolItem(tool.name(), tool.description(), tool.visibleParameters());
        }
    }

    public record Output(boolean structuredOutput) {}

    public record State(boolean snapshots, boolean deltas, boolean memory, boolean persistentState) {}

    /** AG-UI 1.0's {@code MultiAgentCapabilities}: an agent with sub-agents delegates to them (never hands off). */
    public record MultiAgent(boolean supported, Boolean delegation, Boolean handoffs, List<SubagentInfo> subagents) {
        static MultiAgent of(AgentDefinition agent) {
            if (agent.subagents().isEmpty()) {
                return new MultiAgent(false, null, null, null);
            }
            return new MultiAgent(true, true, false, agent.subagents().stream()
                    .map(subagent -> new SubagentInfo(subagent.name(),
                            subagent.description().isBlank() ? null : subagent.description())).toList());
        }
    }

    public record SubagentInfo(String name, String description) {}

    /** {@code supported} is null (unknown) when whether reasoning arrives depends on the configured model. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Reasoning(Boolean supported, boolean streaming, boolean encrypted) {}

    public record Multimodal(MultimodalInput input, MultimodalOutput output) {}

    public record MultimodalInput(boolean image, boolean audio, boolean video, boolean pdf, boolean file) {}

    public record MultimodalOutput(boolean image, boolean audio) {}

    public record Execution(boolean codeExecution, int maxIterations, long maxExecutionTime) {}

    public record HumanInTheLoop(boolean supported, boolean approvals, boolean interventions, boolean feedback,
                                 boolean interrupts, boolean approveWithEdits) {}

    /** A state key filled from a tool's argument while the arguments stream; no argument: all of them. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PredictedKey(String stateKey, String tool, String toolArgument) {

        static PredictedKey of(PredictiveMapping mapping) {
            return new PredictedKey(mapping.stateKey(), mapping.tool(),
                    mapping.wholeArguments() ? null : mapping.toolArgument());
        }
    }

    /**
     * What a run request to a busy thread of the agent may ask for ({@code forwardedProps.multitask}) and what it
     * gets when it names none: the agent's strategy, else the server's.
     */
    public record MultitaskSupport(String defaultStrategy, List<String> strategies) {

        static MultitaskSupport of(AgentDefinition agent, Multitask server) {
            return new MultitaskSupport((agent.multitask() != null ? agent.multitask() : server).wireName(),
                    Arrays.stream(Multitask.values()).map(Multitask::wireName).toList());
        }
    }

    /** Where to reach the agent, as paths on this server (never an internal address). */
    public record Endpoints(String run, String connect, String stop) {

        static Endpoints of(String agent, BasePath root) {
            String run = root.path("/agui/") + agent;
            return new Endpoints(run, run + "/connect", run + "/stop/{threadId}");
        }
    }

    /**
     * What the server and its configuration decide alike for every agent.
     *
     * @param modelReasons    true when the model is known to stream reasoning, false when known not to, null when it
     *                        depends on the configured model (an OpenAI-compatible upstream may or may not)
     * @param parallelCalls   false only when {@code agui.llm.parallel-tool-calls} turns them off: the server runs a
     *                        round's tool calls in parallel
     * @param maxRounds       {@code agui.run.max-rounds}
     * @param maxDuration     {@code agui.run.max-duration}
     * @param multitask       {@code agui.run.multitask}
     * @param root            {@code agui.http.root}, which the agents' endpoints are under
     */
    public record ServerLimits(Boolean modelReasons, boolean parallelCalls, int maxRounds, Duration maxDuration,
                               Multitask multitask, BasePath root) {

        /** This server's: the scripted demo never reasons; whether an OpenAI-compatible upstream does depends on its model. */
        static ServerLimits of(StreamingModel model, RunConfig runs, LlmConfig llm, HttpConfig http) {
            return new ServerLimits(model.description().scripted() ? Boolean.FALSE : null,
                    llm.parallelToolCalls().orElse(true), runs.maxRounds(), runs.maxDuration(), runs.multitask(),
                    BasePath.root(http));
        }
    }

    public static AgentCapabilities of(AgentDefinition agent, ServerLimits server) {
        // A two-phase agent writes state, then a summary: two model calls and no tools offered.
        boolean offersTools = !agent.twoPhaseState();
        boolean confirms = agent.confirmation().enabled();
        Map<String, BackendTool> tools = agent.currentTools();
        Map<String, Object> custom = new LinkedHashMap<>();
        custom.put("endpoints", Endpoints.of(agent.name(), server.root()));
        custom.put("multitask", MultitaskSupport.of(agent, server.multitask()));
        if (agent.hasState()) {
            custom.put("stateSchema", agent.state().toClientSchema());
        }
        if (!agent.predictive().isEmpty()) {
            custom.put("predictiveState", agent.predictive().stream().map(PredictedKey::of).toList());
        }
        if (confirms) {
            custom.put("confirmedTools", tools.values().stream()
                    .filter(tool -> agent.confirmation().requires(tool)).map(BackendTool::name).sorted().toList());
        }
        return new AgentCapabilities(
                new Identity(agent.name(), PLATFORM, agent.description().isBlank() ? null : agent.description(),
                        Map.of("protocolVersion", AgUiEvent.PROTOCOL_VERSION)),
                new Transport(true, false, false, false, true),
                new Tools(offersTools, offersTools ? tools.values().stream().map(ToolItem::of)
                        .toList() : List.of(), offersTools && server.parallelCalls(), offersTools),
                new Output(false),
                new State(agent.hasState(), agent.hasState(), false, agent.hasState()),
                MultiAgent.of(agent),
                new Reasoning(server.modelReasons(), true, false),
                // what ConversationMapper hands the model; video and other files reach it only as a text mention
                new Multimodal(new MultimodalInput(true, true, false, true, false),
                        new MultimodalOutput(false, false)),
                new Execution(false, agent.twoPhaseState() ? 2 : server.maxRounds(), server.maxDuration().toMillis()),
                new HumanInTheLoop(confirms, confirms, false, false, confirms, confirms),
                custom);
    }
}
