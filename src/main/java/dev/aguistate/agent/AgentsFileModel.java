package dev.aguistate.agent;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.state.JsonType;
import dev.aguistate.state.MergeHandlers;
import dev.aguistate.state.PredictiveMapping;
import dev.aguistate.state.StateKey;
import dev.aguistate.state.StateSchema;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.TokenForwarding;
import dev.aguistate.tools.http.HttpTool;
import dev.aguistate.tools.http.HttpTools;
import dev.aguistate.tools.mcp.McpServer;
import dev.aguistate.webhooks.Webhook;
import dev.aguistate.webhooks.WebhookEvent;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * An agents file as Jackson binds it (format: docs/declarative-agents.md), and how each entry becomes the Java
 * API's objects. The agent, state and tool builders do the checking; problems are {@link IllegalArgumentException}s
 * like theirs, prefixed with where in the agent entry they are, so that {@link AgentsFile} adds the file and the
 * agent in one place.
 */
final class AgentsFileModel {

    private AgentsFileModel() {}

    private static BackendTool javaTool(String name, Map<String, BackendTool> javaTools) {
        BackendTool tool = javaTools.get(name);
        if (tool == null) {
            throw new IllegalArgumentException("no @Tool method of the application's beans is named '" + name
                    + "' (they are " + new TreeSet<>(javaTools.keySet()) + ")");
        }
        return tool;
    }

    /** The agents stay JSON here: each is bound on its own, so that a binding error can name its agent. */
    record Document(List<JsonNode> agents) {}

    record AgentEntry(String name, String description, String instructions, Map<String, StateKeyEntry> state,
                      boolean stateless, List<StateToolEntry> stateTools, List<PredictionEntry> predictive,
                      boolean twoPhaseState, boolean raiseOnToolFailure, List<String> serverOwned,
                      ConfirmationEntry confirmation, String onDisconnect, String multitask, Integer maxInputTokens,
                      SummaryEntry summary, List<McpServerEntry> mcpServers, List<HttpToolEntry> httpTools,
                      List<String> tools, Map<String, WebhookEntry> webhooks, List<String> subagents) {

        AgentEntry {
            stateTools = stateTools == null ? List.of() : stateTools;
            predictive = predictive == null ? List.of() : predictive;
            serverOwned = serverOwned == null ? List.of() : serverOwned;
            mcpServers = mcpServers == null ? List.of() : mcpServers;
            httpTools = httpTools == null ? List.of() : httpTools;
            tools = tools == null ? List.of() : tools;
            subagents = subagents == null ? List.of() : subagents;
        }

        /**
         * @param javaTools the tools {@code tools} may name: the {@code @Tool} methods of the application's beans
         * @param agents    the agents {@code subagents} may name: the file's others, built on demand
         */
        AgentDefinition toDefinition(Function<String, Optional<String>> variables, Map<String, BackendTool> javaTools,
                                     Function<String, AgentDefinition> agents) {
            AgentDefinition.Builder agent = AgentDefinition.builder(required(name, "name"))
                    .description(description)
                    .instructions(instructions)
                    .raiseOnToolFailure(raiseOnToolFailure);
            if (onDisconnect != null) {
                agent.onDisconnect(OnDisconnect.named(onDisconnect).orElseThrow(() -> new IllegalArgumentException(
                        "onDisconnect must be 'stop' or 'continue', not '" + onDisconnect + "'")));
            }
            if (multitask != null) {
                agent.multitask(Multitask.named(multitask).orElseThrow(() -> new IllegalArgumentException(
                        "multitask must be one of " + Multitask.choices().replace('"', '\'') + ", not '" + multitask
                                + "'")));
            }
            if (stateless && state != null) {
                throw new IllegalArgumentException("a stateless agent declares no state; remove 'state' or 'stateless'");
            }
            if (stateless) {
                agent.stateless();
            } else if (state != null) {
                StateSchema.Builder schema = StateSchema.builder();
                state.forEach((key, entry) -> schema.key(at("state key '" + key + "'", () -> entry.toStateKey(key))));
                agent.state(schema.build());
            }
            mapAt("stateTools", stateTools, StateToolEntry::name, StateToolEntry::toTool).forEach(agent::tool);
            mapAt("tools", tools, name -> name, name -> javaTool(name, javaTools)).forEach(agent::tool);
            mapAt("subagents", subagents, name -> name, agents).forEach(agent::subagent);
            mapAt("mcpServers", mcpServers, McpServerEntry::id, server -> server.toServer(variables))
                    .forEach(agent::mcpServer);
            if (!httpTools.isEmpty()) {
                agent.httpTools(new HttpTools(mapAt("httpTools", httpTools, HttpToolEntry::name,
                        tool -> tool.toTool(variables))));
            }
            // the builder reports a duplicate tool name; here the first one is enough
            Map<String, StateToolEntry> toolsByName = stateTools.stream()
                    .collect(Collectors.toMap(StateToolEntry::name, tool -> tool, (first, duplicate) -> first,
                            LinkedHashMap::new));
            mapAt("predictive", predictive, prediction -> null, prediction -> prediction.toMapping(toolsByName))
                    .forEach(mapping -> agent.predict(mapping.stateKey(), mapping.tool(), mapping.toolArgument()));
            if (twoPhaseState) {
                agent.twoPhaseState();
            }
            agent.serverOwned(serverOwned.toArray(String[]::new));
            if (confirmation != null) {
                at("confirmation", () -> confirmation.applyTo(agent));
            }
            if (maxInputTokens != null) {
                agent.maxInputTokens(maxInputTokens);
            }
            if (summary != null) {
                agent.summarize(at("summary", summary::toPolicy));
            }
            if (webhooks != null) {
                agent.webhooks(webhooks.entrySet().stream().map(webhook -> at("webhooks." + webhook.getKey(),
                        () -> webhook.getValue().toWebhook(webhook.getKey(), variables))).toList());
            }
            return agent.build();
        }
    }

    /**
     * A run webhook, as {@code agui.webhooks.<name>.*} configures one: {@code url} and {@code secret} may be
     * {@code ${NAME}}s; {@code events} a list of outcomes (absent: all); durations like {@code 10s}.
     */
    record WebhookEntry(String url, String secret, List<String> events, String timeout, Integer maxAttempts,
                        String backoff, Integer queueSize) {

        Webhook toWebhook(String name, Function<String, Optional<String>> variables) {
            Webhook.Builder webhook = Webhook.builder(name, Variables.expand(required(url, "url"), variables, "url"),
                    Variables.expand(required(secret, "secret"), variables, "secret"));
            if (events != null) {
                webhook.events(events.stream().map(event -> WebhookEvent.named(event).orElseThrow(() ->
                        new IllegalArgumentException("unknown event '" + event + "' (expected "
                                + WebhookEvent.choices() + ")"))).collect(Collectors.toSet()));
            }
            if (timeout != null) {
                webhook.timeout(Durations.parse(timeout, "timeout"));
            }
            if (maxAttempts != null) {
                webhook.maxAttempts(maxAttempts);
            }
            if (backoff != null) {
                webhook.backoff(Durations.parse(backoff, "backoff"));
            }
            if (queueSize != null) {
                webhook.queueSize(queueSize);
            }
            return webhook.build();
        }
    }

    /** Omitted thresholds are off; {@code keepRecent} is 10 unless given; no {@code model}: the server's. */
    record SummaryEntry(Integer afterMessages, Integer afterTokens, Integer keepRecent, String model) {

        SummaryPolicy toPolicy() {
            return new SummaryPolicy(afterMessages == null ? 0 : afterMessages, afterTokens == null ? 0 : afterTokens,
                    keepRecent == null ? SummaryPolicy.OFF.keepRecent() : keepRecent, model);
        }
    }

    /**
     * {@code type} is one name or a list of them (a union); none means any JSON. A list may hold YAML's unquoted
     * {@code null}, which YAML reads as a null rather than as the type's name: both mean the null type.
     */
    record StateKeyEntry(@JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                         @JsonSetter(contentNulls = Nulls.SET) List<String> type,
                         String description, @JsonProperty("default") JsonNode defaultValue, String merge) {

        private static final Map<String, BinaryOperator<JsonNode>> MERGE_HANDLERS = Map.of(
                "replace", MergeHandlers.REPLACE,
                "concatenate", MergeHandlers.CONCATENATE,
                "mergeObject", MergeHandlers.MERGE_OBJECT);

        StateKey toStateKey(String name) {
            Set<JsonType> types = type == null ? Set.of() : type.stream()
                    .map(typeName -> typeName == null ? JsonType.NULL : JsonType.fromSchemaName(typeName))
                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(JsonType.class)));
            return new StateKey(name, types, description, defaultValue, merge == null ? null : mergeHandler());
        }

        private BinaryOperator<JsonNode> mergeHandler() {
            BinaryOperator<JsonNode> handler = MERGE_HANDLERS.get(merge);
            if (handler == null) {
                throw new IllegalArgumentException("unknown merge '" + merge
                        + "' (expected replace, concatenate or mergeObject)");
            }
            return handler;
        }
    }

    /** {@code writes} maps a state key to the argument it takes ({@code "*"}: all the arguments). */
    record StateToolEntry(String name, String description, JsonNode parameters, String result,
                          Map<String, String> writes) {

        BackendTool toTool() {
            if (parameters != null && !parameters.isObject()) {
                throw new IllegalArgumentException("parameters must be a JSON Schema object");
            }
            required(writes, "writes").values().stream().filter(argument -> !"*".equals(argument))
                    .forEach(this::checkArgument);
            return BackendTool.stateTool(required(name, "name"), description, parameters, required(result, "result"),
                    writes);
        }

        /**
         * A misspelt argument would write (or predict) nothing, silently; so a named argument must be one of the
         * parameters' properties, when they list any.
         */
        void checkArgument(String argument) {
            JsonNode properties = parameters == null ? null : parameters.get("properties");
            if (properties != null && properties.isObject() && !properties.has(argument)) {
                List<String> declared = new ArrayList<>();
                properties.fieldNames().forEachRemaining(declared::add);
                throw new IllegalArgumentException("argument '" + argument + "' is not one of the parameters "
                        + declared);
            }
        }
    }

    /** {@code toolArgument} omitted or {@code "*"}: the state key shows all the arguments. */
    record PredictionEntry(String stateKey, String tool, String toolArgument) {

        /** Only a declared state tool can be predicted: a misspelt tool name would never match a call. */
        PredictiveMapping toMapping(Map<String, StateToolEntry> stateTools) {
            PredictiveMapping mapping = new PredictiveMapping(required(stateKey, "stateKey"), required(tool, "tool"),
                    toolArgument);
            StateToolEntry target = stateTools.get(tool);
            if (target == null) {
                throw new IllegalArgumentException("tool '" + tool + "' is not one of this agent's stateTools "
                        + stateTools.keySet());
            }
            if (!mapping.wholeArguments()) {
                target.checkArgument(toolArgument);
            }
            return mapping;
        }
    }

    /**
     * {@code tools}: {@code all} (every state tool) or a list of tool names. {@code messages}: a preset name
     * (generic, recipe, document, task-planning) or an object {@code {request, approved, declined}}.
     */
    record ConfirmationEntry(JsonNode tools, JsonNode messages) {

        AgentDefinition.Builder applyTo(AgentDefinition.Builder agent) {
            if (tools == null || "all".equals(tools.asText(null))) {
                agent.requireConfirmation();
            } else if (tools.isArray()) {
                List<String> names = new ArrayList<>();
                tools.forEach(tool -> names.add(tool.asText()));
                agent.requireConfirmation(names.toArray(String[]::new));
            } else {
                throw new IllegalArgumentException("tools must be 'all' or a list of tool names");
            }
            if (messages != null) {
                agent.confirmationMessages(messages.isTextual() ? preset(messages.asText()) : custom());
            }
            return agent;
        }

        private static ConfirmationMessages preset(String name) {
            ConfirmationMessages preset = ConfirmationMessages.PRESETS.get(name);
            if (preset == null) {
                throw new IllegalArgumentException("unknown messages '" + name + "' (expected one of "
                        + new TreeSet<>(ConfirmationMessages.PRESETS.keySet()) + ", or {request, approved, declined})");
            }
            return preset;
        }

        private ConfirmationMessages custom() {
            return new ConfirmationMessages(text("request"), text("approved"), text("declined"));
        }

        private String text(String field) {
            return required(messages.hasNonNull(field) ? messages.get(field).asText() : null, "messages." + field);
        }
    }

    /**
     * An MCP server: {@code url} or {@code command}; {@code tools} an allow-list (absent: all); {@code headers} values
     * may be {@code ${NAME}}s; {@code forwardUserToken} forwards a caller's signed token, and {@code forwardApiKeys}
     * an API-key caller's key too; {@code timeout} like {@code 30s} or {@code 500ms}.
     */
    record McpServerEntry(String id, String url, List<String> command, List<String> tools, Boolean prefix,
                          Map<String, String> headers, boolean forwardUserToken, boolean forwardApiKeys,
                          List<String> confirm, String timeout) {

        McpServer toServer(Function<String, Optional<String>> variables) {
            required(id, "id");
            McpServer.Builder server;
            if (url != null && command != null) {
                throw new IllegalArgumentException("declare either 'url' or 'command', not both");
            } else if (url != null) {
                server = McpServer.url(id, Variables.expand(url, variables, "url"));
            } else if (command != null) {
                server = McpServer.command(id, command.stream()
                        .map(part -> Variables.expand(part, variables, "command")).toList());
            } else {
                throw new IllegalArgumentException("missing 'url' (a server to reach) or 'command' (one to start)");
            }
            if (tools != null) {
                if (tools.isEmpty()) {
                    throw new IllegalArgumentException("tools is empty: list the tools to offer, or leave it out for all");
                }
                server.tools(tools.toArray(String[]::new));
            }
            if (prefix != null) {
                server.prefix(prefix);
            }
            if (headers != null) {
                headers.forEach((name, value) -> server.header(name,
                        Variables.expand(value, variables, "headers." + name)));
            }
            server.forwardUserToken(forwarding(forwardUserToken, forwardApiKeys));
            if (confirm != null) {
                server.confirm(confirm.toArray(String[]::new));
            }
            if (timeout != null) {
                server.timeout(Durations.parse(timeout, "timeout"));
            }
            return server.build();
        }
    }

    /**
     * An HTTP tool: {@code url} with {@code {param}} placeholders (and {@code ${NAME}}s), {@code method} GET by
     * default, {@code parameters} a JSON Schema.
     */
    record HttpToolEntry(String name, String description, String method, String url, JsonNode parameters,
                         Map<String, String> headers, boolean forwardUserToken, boolean forwardApiKeys,
                         String timeout) {

        HttpTool toTool(Function<String, Optional<String>> variables) {
            HttpTool.Builder tool = HttpTool.builder(required(name, "name"), method,
                            Variables.expand(required(url, "url"), variables, "url"))
                    .description(description)
                    .parameters(parameters)
                    .forwardUserToken(forwarding(forwardUserToken, forwardApiKeys));
            if (headers != null) {
                headers.forEach((header, value) -> tool.header(header,
                        Variables.expand(value, variables, "headers." + header)));
            }
            if (timeout != null) {
                tool.timeout(Durations.parse(timeout, "timeout"));
            }
            return tool.build();
        }
    }

    private static TokenForwarding forwarding(boolean forwardUserToken, boolean forwardApiKeys) {
        if (forwardApiKeys && !forwardUserToken) {
            throw new IllegalArgumentException("forwardApiKeys needs forwardUserToken: true");
        }
        return !forwardUserToken ? TokenForwarding.NONE
                : forwardApiKeys ? TokenForwarding.SIGNED_TOKENS_AND_API_KEYS : TokenForwarding.SIGNED_TOKENS;
    }

    /** Where an entry is, for messages: {@code stateTools[0] 'set_itinerary'}, or without the name if it has none. */
    static String label(String list, int index, String name) {
        return list + "[" + index + "]" + (name == null ? "" : " '" + name + "'");
    }

    private static <T> T required(T value, String field) {
        if (value == null) {
            throw new IllegalArgumentException("missing required field '" + field + "'");
        }
        return value;
    }

    /** Maps each entry, prefixing a problem with where the entry is. */
    private static <T, R> List<R> mapAt(String list, List<T> entries, Function<T, String> name, Function<T, R> step) {
        List<R> results = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            T entry = entries.get(i);
            results.add(at(label(list, i, name.apply(entry)), () -> step.apply(entry)));
        }
        return results;
    }

    /** Runs {@code step}, prefixing a problem it reports with {@code where}. */
    private static <T> T at(String where, Supplier<T> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }
}
