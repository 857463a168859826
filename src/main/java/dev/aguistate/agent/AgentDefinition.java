package dev.aguistate.agent;

import dev.aguistate.state.PredictiveMapping;
import dev.aguistate.state.StateSchema;
import dev.aguistate.state.StateScopes;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolSource;
import dev.aguistate.tools.http.HttpTools;
import dev.aguistate.tools.mcp.McpServer;
import dev.aguistate.webhooks.Webhook;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * An agent the server offers at {@code /agui/<name>}: what it is told, the backend tools it may call, and the
 * shared state it keeps. Build one with {@link #builder(String)} and expose it as a CDI bean; the registry picks
 * it up.
 *
 * @param state               the state schema ({@link StateSchema#FREE_FORM} unless declared); null when the agent
 *                            was made stateless: it keeps, shows and stores no state
 * @param predictive          state keys predicted from tool arguments while they stream
 * @param twoPhaseState       each run first asks the LLM for the complete new state as structured output
 *                            (streamed to the client as a prediction, then a snapshot), then for a short summary;
 *                            no tools are offered
 * @param raiseOnToolFailure  a failing backend tool ends the run with {@code RUN_ERROR tool_failed} instead of
 *                            telling the LLM what went wrong
 * @param serverOwnedKeys     state keys only the server (its tools) may change, besides every {@code app:} key; a
 *                            client's value for one is ignored
 * @param confirmation        which tools wait for the user's approval, and the words used to ask
 * @param onDisconnect        what its runs do when their client leaves, unless a request says; null: the server's
 *                            {@code agui.run.on-disconnect}
 * @param multitask           what a run request to a busy thread of its does, unless the request says; null: the
 *                            server's {@code agui.run.multitask}
 * @param maxInputTokens      the most input tokens of its LLM requests; null: the server's
 *                            {@code agui.run.context.max-input-tokens} (see docs/long-conversations.md)
 * @param summary             when its threads' earlier conversation is summarized; null: the server's
 *                            {@code agui.run.summary.*}
 * @param toolSources         where its further tools come from: MCP servers, HTTP tools (see docs/tools.md); their
 *                            lists may change while the server runs, so a run takes {@link #currentTools()} once
 * @param webhooks            where its runs' outcomes are sent; null: the server's {@code agui.webhooks.*} (see
 *                            docs/threads.md, "Run webhooks")
 * @param subagents           the agents it may hand a task to, each offered to its LLM as a tool named after the
 *                            sub-agent (see docs/subagents.md)
 */
public record AgentDefinition(String name, String description, String instructions, Map<String, BackendTool> tools,
                              StateSchema state, List<PredictiveMapping> predictive, boolean twoPhaseState,
                              boolean raiseOnToolFailure, Set<String> serverOwnedKeys,
                              ConfirmationPolicy confirmation, OnDisconnect onDisconnect, Multitask multitask,
                              Integer maxInputTokens, SummaryPolicy summary, List<ToolSource> toolSources,
                              List<Webhook> webhooks, List<AgentDefinition> subagents) {

    public AgentDefinition {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-z0-9][a-z0-9_-]{0,63}")) {
            throw new IllegalArgumentException("agent name must match [a-z0-9][a-z0-9_-]{0,63}: " + name);
        }
        description = description == null ? "" : description;
        instructions = instructions == null ? "" : instructions;
        tools = Collections.unmodifiableMap(new LinkedHashMap<>(tools)); // declaration order: stable prompts
        toolSources = List.copyOf(toolSources);
        webhooks = webhooks == null ? null : List.copyOf(webhooks);
        subagents = List.copyOf(subagents);
        predictive = List.copyOf(predictive);
        serverOwnedKeys = Set.copyOf(serverOwnedKeys);
        confirmation = confirmation == null ? ConfirmationPolicy.NONE : confirmation;
        if (maxInputTokens != null && maxInputTokens < 0) {
            throw new IllegalArgumentException("agent " + name + ": maxInputTokens must not be negative");
        }
    }

    /** True when a client may not change the key: an {@code app:} key or one the agent declared server-owned. */
    public boolean serverOwns(String key) {
        return StateScopes.isApp(key) || serverOwnedKeys.contains(key);
    }

    public boolean hasState() {
        return state != null;
    }

    /** One of its tools as it is now: its own, else a source's. */
    public Optional<BackendTool> tool(String toolName) {
        BackendTool own = tools.get(toolName);
        return own != null || toolSources.isEmpty() ? Optional.ofNullable(own)
                : Optional.ofNullable(currentTools().get(toolName));
    }

    /**
     * Its tools as they are now, by name: its own, then each source's in declaration order. A source's tool named
     * like one before it is left out (the first keeps the name).
     */
    public Map<String, BackendTool> currentTools() {
        if (toolSources.isEmpty()) {
            return tools;
        }
        Map<String, BackendTool> current = new LinkedHashMap<>(tools);
        toolSources.forEach(source -> source.tools().forEach(tool -> current.putIfAbsent(tool.name(), tool)));
        return Collections.unmodifiableMap(current);
    }

    /** The state keys a tool predicts while its arguments stream or writes with its result. */
    public Set<String> stateKeysOf(String toolName) {
        Set<String> keys = new LinkedHashSet<>();
        predictive.stream().filter(p -> p.tool().equals(toolName)).forEach(p -> keys.add(p.stateKey()));
        tool(toolName).ifPresent(tool -> keys.addAll(tool.outputsToState().keySet()));
        return keys;
    }

    /** One of its sub-agents, by name. */
    public Optional<AgentDefinition> subagent(String agentName) {
        return subagents.stream().filter(agent -> agent.name().equals(agentName)).findFirst();
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public static final class Builder {
        private final String name;
        private String description;
        private String instructions;
        private final List<BackendTool> tools = new ArrayList<>();
        private StateSchema state = StateSchema.FREE_FORM;
        private final List<PredictiveMapping> predictive = new ArrayList<>();
        private boolean twoPhaseState;
        private boolean raiseOnToolFailure;
        private OnDisconnect onDisconnect;
        private Multitask multitask;
        private Integer maxInputTokens;
        private SummaryPolicy summary;
        private List<Webhook> webhooks;
        private final Set<String> serverOwnedKeys = new LinkedHashSet<>();
        private boolean confirmAllStateTools;
        private final Set<String> confirmedTools = new LinkedHashSet<>();
        private final List<ToolSource> toolSources = new ArrayList<>();
        private final List<AgentDefinition> subagents = new ArrayList<>();
        private ConfirmationMessages confirmationMessages = ConfirmationMessages.GENERIC;

        private Builder(String name) {
            this.name = name;
        }

        public Builder description(String description) {
            this.description = description;
            return this;
        }

        public Builder instructions(String instructions) {
            this.instructions = instructions;
            return this;
        }

        public Builder tool(BackendTool tool) {
            tools.add(tool);
            return this;
        }

        /**
         * Tools from outside the agent's code (see docs/tools.md); the registry starts the source with the server and
         * closes it at shutdown.
         */
        public Builder toolSource(ToolSource source) {
            toolSources.add(Objects.requireNonNull(source, "source"));
            return this;
        }

        /** The tools of an MCP server, as {@code mcp__<id>__<tool>} unless it says otherwise. */
        public Builder mcpServer(McpServer server) {
            return toolSource(server.toolSource());
        }

        /**
         * Offers {@code agent} to this agent's LLM as a tool named after it, taking a {@code task}: a call runs the
         * sub-agent as a run of its own (its instructions, tools, state and token budget; no conversation but the
         * task) on this run's stream, and its final answer is the call's result (see docs/subagents.md). Its tool
         * sources start with the server only if it is registered as an agent of its own too.
         */
        public Builder subagent(AgentDefinition agent) {
            subagents.add(Objects.requireNonNull(agent, "agent"));
            return this;
        }

        /** Tools that are plain HTTP calls. */
        public Builder httpTools(HttpTools tools) {
            return toolSource(tools);
        }

        /**
         * The agent keeps shared state of this schema. Without one it keeps free-form state
         * ({@link StateSchema#FREE_FORM}: any key, any JSON).
         */
        public Builder state(StateSchema schema) {
            this.state = Objects.requireNonNull(schema, "schema (use stateless() for an agent without state)");
            return this;
        }

        /** The agent keeps no state: the LLM is shown none, none is stored, and the client gets no snapshots. */
        public Builder stateless() {
            this.state = null;
            return this;
        }

        /**
         * While {@code tool}'s arguments stream, the state key {@code stateKey} shows the argument
         * {@code toolArgument} as parsed so far ({@code "*"} or null: all the arguments).
         */
        public Builder predict(String stateKey, String tool, String toolArgument) {
            predictive.add(new PredictiveMapping(stateKey, tool, toolArgument));
            return this;
        }

        /** Runs in two LLM calls: the new state as structured output, then a summary (the C# AG-UI sample's mode). */
        public Builder twoPhaseState() {
            this.twoPhaseState = true;
            return this;
        }

        public Builder raiseOnToolFailure(boolean raise) {
            this.raiseOnToolFailure = raise;
            return this;
        }

        /** What this agent's runs do when their client leaves, unless the request says (see {@link OnDisconnect}). */
        public Builder onDisconnect(OnDisconnect policy) {
            this.onDisconnect = policy;
            return this;
        }

        /** What a run request to a busy thread of this agent does, unless the request says (see {@link Multitask}). */
        public Builder multitask(Multitask strategy) {
            this.multitask = strategy;
            return this;
        }

        /**
         * The most input tokens its LLM requests may take; the oldest messages are left out to fit (0: no budget).
         * Without it, the server's {@code agui.run.context.max-input-tokens} or the model's known limits apply.
         */
        public Builder maxInputTokens(int tokens) {
            this.maxInputTokens = tokens;
            return this;
        }

        /** When its threads' earlier conversation is summarized, instead of the server's {@code agui.run.summary.*}. */
        public Builder summarize(SummaryPolicy policy) {
            this.summary = Objects.requireNonNull(policy, "policy (SummaryPolicy.OFF for none)");
            return this;
        }

        /**
         * Where this agent's runs' outcomes are sent, instead of the server's {@code agui.webhooks.*}; none: nowhere.
         */
        public Builder webhooks(List<Webhook> webhooks) {
            Set<String> names = new LinkedHashSet<>();
            webhooks.stream().filter(webhook -> !names.add(webhook.name())).findFirst().ifPresent(webhook -> {
                throw new IllegalArgumentException("agent " + name + " declares webhook " + webhook.name() + " twice");
            });
            this.webhooks = List.copyOf(webhooks);
            return this;
        }

        /** Keys only the server may change, like {@code app:} keys; clients' edits of them are ignored and logged. */
        public Builder serverOwned(String... keys) {
            serverOwnedKeys.addAll(List.of(keys));
            return this;
        }

        /**
         * Every state tool waits for the user's approval: its predicted state streams as usual, then the run asks
         * and finishes; the next run carries the answer (see docs/confirmation.md).
         */
        public Builder requireConfirmation() {
            this.confirmAllStateTools = true;
            return this;
        }

        /** These backend tools wait for the user's approval. */
        public Builder requireConfirmation(String... toolNames) {
            confirmedTools.addAll(List.of(toolNames));
            return this;
        }

        /** The words used to ask and to tell the LLM the answer; {@link ConfirmationMessages#GENERIC} by default. */
        public Builder confirmationMessages(ConfirmationMessages messages) {
            this.confirmationMessages = Objects.requireNonNull(messages, "messages");
            return this;
        }

        public AgentDefinition build() {
            Map<String, BackendTool> byName = new LinkedHashMap<>();
            for (BackendTool tool : tools) {
                if (byName.put(tool.name(), tool) != null) {
                    throw new IllegalArgumentException("agent " + name + " declares tool " + tool.name() + " twice");
                }
            }
            for (BackendTool tool : byName.values()) {
                checkStateKeys("tool " + tool.name(), Stream.concat(tool.inputsFromState().keySet().stream(),
                        tool.outputsToState().keySet().stream()));
            }
            predictive.forEach(p -> checkStateKeys("tool " + p.tool() + " (predicted state)", Stream.of(p.stateKey())));
            checkStateKeys("the server-owned key list", serverOwnedKeys.stream());
            for (AgentDefinition subagent : subagents) {
                if (byName.containsKey(subagent.name()) || subagents.stream()
                        .filter(other -> other.name().equals(subagent.name())).count() > 1) {
                    throw new IllegalArgumentException("agent " + name + " offers sub-agent " + subagent.name()
                            + " twice, or next to a tool of that name");
                }
            }
            Set<String> known = new LinkedHashSet<>(byName.keySet());
            toolSources.forEach(source -> source.tools().forEach(tool -> known.add(tool.name())));
            confirmedTools.stream().filter(tool -> !known.contains(tool)).findFirst().ifPresent(tool -> {
                throw new IllegalArgumentException("agent " + name + " requires confirmation of tool '" + tool
                        + "', which is not one of its backend tools " + known
                        + " (an MCP server's tools are confirmed with its own 'confirm')");
            });
            Set<String> sourceIds = new LinkedHashSet<>();
            toolSources.stream().filter(source -> !sourceIds.add(source.id())).findFirst().ifPresent(source -> {
                throw new IllegalArgumentException("agent " + name + " declares tool source " + source.id() + " twice");
            });
            Set<String> confirmed = new LinkedHashSet<>(confirmedTools);
            toolSources.forEach(source -> confirmed.addAll(source.confirmedTools()));
            if (twoPhaseState && (state == null || state.freeForm())) {
                throw new IllegalArgumentException("agent " + name
                        + " uses two-phase state, which needs a state schema with declared keys");
            }
            return new AgentDefinition(name, description, instructions, byName, state, predictive, twoPhaseState,
                    raiseOnToolFailure, serverOwnedKeys,
                    new ConfirmationPolicy(confirmAllStateTools, confirmed, confirmationMessages), onDisconnect,
                    multitask, maxInputTokens, summary, toolSources, webhooks, subagents);
        }

        private void checkStateKeys(String what, Stream<String> keys) {
            List<String> used = keys.toList();
            if (state == null && !used.isEmpty()) {
                throw new IllegalArgumentException(what + " of agent " + name
                        + " uses state, but the agent is stateless");
            }
            if (state != null && !state.freeForm()) {
                used.stream().filter(key -> state.key(key).isEmpty()).findFirst().ifPresent(key -> {
                    throw new IllegalArgumentException(what + " of agent " + name + " uses state key '"
                            + key + "', which the state schema does not declare");
                });
            }
        }
    }
}
