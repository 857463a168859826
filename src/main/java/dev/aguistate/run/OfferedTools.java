package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.llm.ToolSchemas;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.Tool;
import dev.aguistate.protocol.ToolCall;
import dev.aguistate.tools.BackendTool;
import dev.langchain4j.agent.tool.ToolSpecification;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The tools a run offers the LLM: the agent's backend tools, its sub-agents (each a tool taking a {@value #TASK})
 * and the client's frontend tools (a client tool named like one of the agent's is shadowed by it). {@value Confirmations#CONFIRM_CHANGES} is never offered: a client
 * that declares it chooses the client-tool form of confirmations.
 */
public final class OfferedTools {

    private static final Logger LOG = Logger.getLogger(OfferedTools.class);
    /** What a sub-agent takes as a tool: the task, in words. */
    static final String TASK = "task";
    private static final JsonNode SUBAGENT_PARAMETERS = JsonNodeFactory.instance.objectNode()
            .put("type", "object")
            .<ObjectNode>set("properties", JsonNodeFactory.instance.objectNode().set(TASK, JsonNodeFactory.instance
                    .objectNode().put("type", "string").put("description", "The task, with all it needs to know")))
            .set("required", JsonNodeFactory.instance.arrayNode().add(TASK));

    private final AgentDefinition agent;
    /** The agent's tools as the run found them at its start: a source's list may change meanwhile. */
    private final Map<String, BackendTool> backendTools;
    private final Set<String> frontendTools;
    private final List<ToolSpecification> specifications;
    private final boolean clientConfirms;

    private OfferedTools(AgentDefinition agent, Map<String, BackendTool> backendTools, Set<String> frontendTools,
                         List<ToolSpecification> specifications, boolean clientConfirms) {
        this.agent = agent;
        this.backendTools = backendTools;
        this.frontendTools = frontendTools;
        this.specifications = specifications;
        this.clientConfirms = clientConfirms;
    }

    public static OfferedTools of(AgentDefinition agent, RunAgentInput input) {
        List<ToolSpecification> specifications = new ArrayList<>();
        Map<String, BackendTool> backendTools = agent.currentTools();
        backendTools.values().forEach(t -> specifications.add(
                ToolSchemas.specification(t.name(), t.description(), t.visibleParameters())));
        agent.subagents().forEach(a -> specifications.add(ToolSchemas.specification(a.name(),
                a.description().isEmpty() ? "Hands a task to the agent " + a.name() + "; answers with its result."
                        : a.description(), SUBAGENT_PARAMETERS)));
        List<Tool> frontend = input.tools().stream()
                .filter(t -> !ToolCall.CONFIRM_CHANGES.equals(t.name()))
                .filter(t -> {
                    boolean shadowed = backendTools.containsKey(t.name()) || agent.subagent(t.name()).isPresent();
                    if (shadowed) {
                        LOG.warnf("threadId=%s runId=%s: client tool %s is shadowed by the agent's own tool",
                                input.threadId(), input.runId(), t.name());
                    }
                    return !shadowed;
                })
                .toList();
        frontend.forEach(t -> specifications.add(ToolSchemas.specification(t.name(), t.description(), t.parameters())));
        boolean clientConfirms = input.tools().stream().anyMatch(t -> ToolCall.CONFIRM_CHANGES.equals(t.name()));
        return new OfferedTools(agent, backendTools, frontend.stream().map(Tool::name).collect(Collectors.toUnmodifiableSet()),
                List.copyOf(specifications), clientConfirms);
    }

    public List<ToolSpecification> specifications() {
        return specifications;
    }

    /** The client declared {@value Confirmations#CONFIRM_CHANGES}: confirmations take the client-tool form. */
    boolean clientConfirms() {
        return clientConfirms;
    }

    /** Which of a round's calls the server runs, which wait for the user's approval, and whether the client must act. */
    RoundCalls sort(Collection<ToolCallState> calls) {
        List<ServerToolCall> serverCalls = new ArrayList<>();
        List<ServerToolCall> toConfirm = new ArrayList<>();
        List<String> clientCalls = new ArrayList<>();
        for (ToolCallState call : calls) {
            if (frontendTools.contains(call.name)) {
                clientCalls.add(call.id);
                continue;
            }
            BackendTool tool = backendTools.get(call.name);
            ServerToolCall serverCall = new ServerToolCall(call.id, call.name, call.argumentsOrEmptyObject(), tool,
                    tool == null ? agent.subagent(call.name).orElse(null) : null);
            if (tool != null && agent.confirmation().requires(tool)) {
                toConfirm.add(serverCall);
            } else {
                serverCalls.add(serverCall);
            }
        }
        return new RoundCalls(calls.isEmpty(), serverCalls, List.copyOf(clientCalls), toConfirm);
    }

    /**
     * @param none           the model called no tools: the run is complete
     * @param serverCalls    calls to execute here, in the model's order
     * @param clientCalls    ids of the frontend tool calls, in the model's order: the client answers them
     * @param toConfirm      calls that wait for the user's approval: the run asks, then ends
     */
    record RoundCalls(boolean none, List<ServerToolCall> serverCalls, List<String> clientCalls,
                      List<ServerToolCall> toConfirm) {

        /** A frontend tool was called: the run ends and the client continues it. */
        boolean waitsForClient() {
            return !clientCalls.isEmpty();
        }

        boolean endRun() {
            return waitsForClient() || !toConfirm.isEmpty();
        }
    }
}
