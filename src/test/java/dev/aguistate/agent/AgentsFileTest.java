package dev.aguistate.agent;

import java.util.Optional;

import dev.aguistate.tools.ToolSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aguistate.state.JsonType;
import dev.aguistate.state.MergeHandlers;
import dev.aguistate.state.PredictiveMapping;
import dev.aguistate.state.StateKey;
import dev.aguistate.state.StateSchema;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.StateOutput;
import dev.aguistate.tools.ToolInvoker;
import dev.aguistate.webhooks.Webhook;
import dev.aguistate.webhooks.WebhookEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Execution(ExecutionMode.CONCURRENT)
class AgentsFileTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String YAML_AGENTS = """
            agents:
              - name: planner
                description: Plans things
                instructions: |
                  Plan carefully.
                  Use the tools.
                state:
                  plan:
                    type: object
                    description: The plan
                    default: {steps: []}
                  title:
                    type: [string, null]
                    description: The plan's title
                    default: null
                  log:
                    type: array
                  tags:
                    type: array
                    merge: replace
                  settings:
                    type: object
                    merge: mergeObject
                  anything: {}
                stateTools:
                  - name: set_plan
                    description: Replace the plan
                    parameters: {type: object, properties: {plan: {type: object}, title: {type: [string, "null"]}}}
                    result: Plan updated.
                    writes: {plan: plan, title: title}
                  - name: save_settings
                    description: Save settings
                    result: Saved.
                    writes: {settings: "*"}
                predictive:
                  - {stateKey: plan, tool: set_plan, toolArgument: plan}
                  - {stateKey: settings, tool: save_settings}
                serverOwned: [settings]
                confirmation: {tools: [set_plan], messages: task-planning}
                raiseOnToolFailure: true
              - name: scratchpad
                state: {}
              - name: plain
                stateless: true
              - name: form
                twoPhaseState: true
                state:
                  answer: {type: string}
            """;

    private static final String JSON_AGENTS = """
            {"agents": [
              {"name": "planner", "description": "Plans things", "instructions": "Plan carefully.\\nUse the tools.\\n",
               "state": {
                 "plan": {"type": "object", "description": "The plan", "default": {"steps": []}},
                 "title": {"type": ["string", "null"], "description": "The plan's title", "default": null},
                 "log": {"type": "array"},
                 "tags": {"type": "array", "merge": "replace"},
                 "settings": {"type": "object", "merge": "mergeObject"},
                 "anything": {}},
               "stateTools": [
                 {"name": "set_plan", "description": "Replace the plan",
                  "parameters": {"type": "object",
                                 "properties": {"plan": {"type": "object"}, "title": {"type": ["string", "null"]}}},
                  "result": "Plan updated.", "writes": {"plan": "plan", "title": "title"}},
                 {"name": "save_settings", "description": "Save settings", "result": "Saved.",
                  "writes": {"settings": "*"}}],
               "predictive": [
                 {"stateKey": "plan", "tool": "set_plan", "toolArgument": "plan"},
                 {"stateKey": "settings", "tool": "save_settings"}],
               "serverOwned": ["settings"],
               "confirmation": {"tools": ["set_plan"], "messages": "task-planning"},
               "raiseOnToolFailure": true},
              {"name": "scratchpad", "state": {}},
              {"name": "plain", "stateless": true},
              {"name": "form", "twoPhaseState": true, "state": {"answer": {"type": "string"}}}
            ]}
            """;

    @TempDir
    Path dir;

    @Test
    void yamlAndJsonDeclareTheSameAgents() throws IOException {
        List<AgentDefinition> fromYaml = AgentsFile.load(write("agents.yaml", YAML_AGENTS));
        // indented with tabs, as JSON often is and YAML may not be
        List<AgentDefinition> fromJson = AgentsFile.load(write("agents.json", JSON_AGENTS.replace("  ", "\t")));

        assertEquals(List.of("planner", "scratchpad", "plain", "form"), fromYaml.stream().map(AgentDefinition::name).toList());
        assertEquals(fromYaml.stream().map(AgentsFileTest::summary).toList(),
                fromJson.stream().map(AgentsFileTest::summary).toList());
    }

    @Test
    void anAgentGetsItsTextsSchemaToolsAndPredictions() throws IOException {
        AgentDefinition planner = AgentsFile.load(write("agents.yaml", YAML_AGENTS)).get(0);

        assertEquals("Plans things", planner.description());
        assertEquals("Plan carefully.\nUse the tools.\n", planner.instructions());
        assertTrue(planner.raiseOnToolFailure());
        assertTrue(planner.serverOwns("settings"));
        assertFalse(planner.serverOwns("plan"));
        assertTrue(planner.confirmation().requires(planner.tool("set_plan").orElseThrow()));
        assertFalse(planner.confirmation().requires(planner.tool("save_settings").orElseThrow()));
        assertEquals(ConfirmationMessages.TASK_PLANNING, planner.confirmation().messages());
        StateSchema state = planner.state();
        assertEquals(Set.of(JsonType.OBJECT), key(state, "plan").types());
        assertEquals(Set.of(JsonType.STRING, JsonType.NULL), key(state, "title").types(), "YAML's bare null is the type");
        assertEquals(Set.of(JsonType.values()), key(state, "anything").types(), "no type: any JSON");
        assertEquals("The plan's title", key(state, "title").description());
        assertEquals(json("{\"plan\":{\"steps\":[]},\"title\":null}"), state.defaults());
        assertEquals(List.of(new PredictiveMapping("plan", "set_plan", "plan"),
                new PredictiveMapping("settings", "save_settings", null)), planner.predictive());
        assertTrue(planner.predictive().get(1).wholeArguments());

        BackendTool setPlan = planner.tool("set_plan").orElseThrow();
        assertEquals("Replace the plan", setPlan.description());
        assertEquals(json("{\"type\":\"object\",\"properties\":{\"plan\":{\"type\":\"object\"},"
                + "\"title\":{\"type\":[\"string\",\"null\"]}}}"), setPlan.parameters());
        assertEquals(Map.of("plan", new StateOutput("plan", null), "title", new StateOutput("title", null)),
                setPlan.outputsToState());
        assertEquals("Plan updated.", resultText(setPlan));
        assertEquals(Map.of("settings", new StateOutput(null, null)),
                planner.tool("save_settings").orElseThrow().outputsToState(), "\"*\" writes all the arguments");
        assertEquals("Saved.", resultText(planner.tool("save_settings").orElseThrow()));
    }

    @Test
    void anAgentMayChooseWhatARequestToABusyThreadDoes() throws IOException {
        List<AgentDefinition> agents = AgentsFile.load(write("agents.yaml",
                "agents:\n  - name: strict\n    multitask: reject\n  - name: plain\n"));

        assertEquals(Multitask.REJECT, agents.get(0).multitask());
        assertNull(agents.get(1).multitask(), "none: the request's, else the server's agui.run.multitask");
    }

    @Test
    void mergeNamesPickTheHandlersAndTheDefaultDependsOnTheType() throws IOException {
        StateSchema state = AgentsFile.load(write("agents.yaml", YAML_AGENTS)).get(0).state();
        JsonNode current = json("[1]");
        JsonNode written = json("[2]");

        assertEquals(json("[1,2]"), key(state, "log").handler().apply(current, written), "array-only: concatenate");
        assertEquals(json("[2]"), key(state, "tags").handler().apply(current, written), "merge: replace");
        assertEquals(json("{\"a\":1,\"b\":2}"),
                key(state, "settings").handler().apply(json("{\"a\":1}"), json("{\"b\":2}")), "merge: mergeObject");
        assertEquals(json("{\"b\":2}"), key(state, "plan").handler().apply(json("{\"a\":1}"), json("{\"b\":2}")),
                "object: replace");
    }

    @Test
    void emptyOrNoStateIsFreeFormStatelessIsNoneAndTwoPhaseIsOptIn() throws IOException {
        List<AgentDefinition> agents = AgentsFile.load(write("agents.yaml", YAML_AGENTS));

        assertTrue(agents.get(1).state().freeForm());
        assertFalse(agents.get(2).hasState());
        assertTrue(AgentsFile.load(write("bare.yaml", "agents:\n  - name: bare\n")).get(0).state().freeForm());
        assertTrue(agents.get(2).tools().isEmpty());
        assertFalse(agents.get(0).twoPhaseState());
        assertTrue(agents.get(3).twoPhaseState());
    }

    @Test
    void anAgentSetsItsTokenBudgetAndWhenItsThreadsAreSummarized() throws IOException {
        List<AgentDefinition> agents = AgentsFile.load(write("long.yaml", """
                agents:
                  - name: long-talker
                    maxInputTokens: 30000
                    summary:
                      afterMessages: 40
                      afterTokens: 20000
                      keepRecent: 12
                      model: gpt-4o-mini
                  - name: quick
                    summary:
                      afterTokens: 8000
                  - name: plain
                """));

        assertEquals(30000, agents.get(0).maxInputTokens());
        assertEquals(new SummaryPolicy(40, 20000, 12, "gpt-4o-mini"), agents.get(0).summary());
        assertEquals(new SummaryPolicy(0, 8000, 10, null), agents.get(1).summary(), "keepRecent defaults to 10");
        assertNull(agents.get(2).maxInputTokens(), "the server's budget");
        assertNull(agents.get(2).summary(), "the server's summary settings");
    }

    @Test
    void anAgentsWebhooksReplaceTheServersTakeTheirSecretFromAVariableAndAnEmptyMapIsNone() throws IOException {
        String secret = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
        List<AgentDefinition> agents = AgentsFile.load(write("hooks.yaml", """
                agents:
                  - name: hooked
                    webhooks:
                      ops:
                        url: https://ops.example.com/agui
                        secret: ${OPS_SECRET}
                        events: [failed, cancelled]
                        timeout: 5s
                        maxAttempts: 3
                        backoff: 500ms
                        queueSize: 50
                  - name: quiet
                    webhooks: {}
                  - name: plain
                """), name -> name.equals("OPS_SECRET") ? Optional.of(secret) : Optional.empty());

        assertEquals(List.of(Webhook.builder("ops", "https://ops.example.com/agui", secret)
                .events(Set.of(WebhookEvent.FAILED, WebhookEvent.CANCELLED)).timeout(Duration.ofSeconds(5))
                .maxAttempts(3).backoff(Duration.ofMillis(500)).queueSize(50).build()), agents.get(0).webhooks());
        assertEquals(List.of(), agents.get(1).webhooks(), "no webhooks at all for this agent");
        assertNull(agents.get(2).webhooks(), "the server's agui.webhooks.*");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenWebhooks")
    void aBrokenWebhookIsRefusedWithWhereItIs(String name, String webhook, String problem) throws IOException {
        Path file = write("hooks.yaml", "agents:\n  - name: hooked\n    webhooks:\n      ops: " + webhook + "\n");

        AgentsFileException e = assertThrows(AgentsFileException.class, () -> AgentsFile.load(file,
                variable -> Optional.empty()));

        assertTrue(e.getMessage().startsWith(file + ": agents[0] 'hooked': webhooks.ops: "), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
        assertFalse(e.getMessage().contains("hunter2"), "a secret is never shown: " + e.getMessage());
    }

    static Stream<Arguments> brokenWebhooks() {
        String secret = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
        return Stream.of(
                Arguments.of("no url", "{secret: " + secret + "}", "missing required field 'url'"),
                Arguments.of("no secret", "{url: 'https://x.example'}", "missing required field 'secret'"),
                Arguments.of("not a Standard Webhooks secret", "{url: 'https://x.example', secret: hunter2}",
                        "secret must be 'whsec_' followed by the base64 of 24 to 64 random bytes"),
                Arguments.of("an unknown event", "{url: 'https://x.example', secret: " + secret
                        + ", events: [finished, done]}", "unknown event 'done' (expected finished, failed, cancelled,"
                        + " interrupted)"),
                Arguments.of("no events", "{url: 'https://x.example', secret: " + secret + ", events: []}",
                        "events is empty"),
                Arguments.of("not http", "{url: 'ftp://x.example', secret: " + secret + "}",
                        "url must be an absolute http or https URL"),
                Arguments.of("an unset variable", "{url: 'https://x.example', secret: '${OPS_SECRET}'}",
                        "secret: ${OPS_SECRET} is not set"));
    }

    @Test
    void summaryThresholdsThatLeaveNothingToSummarizeAreRefused() throws IOException {
        Path file = write("bad.yaml", "agents:\n  - name: bad\n    summary:\n      afterMessages: 5\n      keepRecent: 10\n");

        AgentsFileException e = assertThrows(AgentsFileException.class, () -> AgentsFile.load(file));

        assertTrue(e.getMessage().contains("summary: summary afterMessages (5) must be more than keepRecent (10)"),
                e.getMessage());
        assertTrue(assertThrows(AgentsFileException.class, () -> AgentsFile.load(write("worse.yaml",
                "agents:\n  - name: worse\n    maxInputTokens: lots\n"))).getMessage()
                .contains("maxInputTokens: expected a whole number"));
    }

    @Test
    void toolsNameJavaToolsAndAnUnknownNameIsRefusedWithTheKnownOnes() throws IOException {
        BackendTool lookup = BackendTool.builder("lookupOrder").handler((args, context) -> "shipped");
        Path file = write("java-tools.yaml", "agents:\n  - name: support\n    tools: [lookupOrder]\n");

        AgentDefinition support = AgentsFile.load(file, name -> Optional.empty(), Map.of("lookupOrder", lookup)).get(0);

        assertSame(lookup, support.tools().get("lookupOrder"));
        assertTrue(assertThrows(AgentsFileException.class, () -> AgentsFile.load(file, name -> Optional.empty(),
                Map.of())).getMessage().endsWith("agents[0] 'support': tools[0] 'lookupOrder': no @Tool method of"
                + " the application's beans is named 'lookupOrder' (they are [])"));
    }

    @Test
    void theExampleFileLoads() {
        AgentDefinition planner = AgentsFile.load(Path.of("examples/agents.yaml")).get(0);

        assertEquals("trip-planner", planner.name());
        assertEquals(Set.of("set_itinerary", "remember_preferences"), planner.tools().keySet());
        assertEquals(List.of(new PredictiveMapping("itinerary", "set_itinerary", "itinerary")), planner.predictive());
        assertSame(MergeHandlers.MERGE_OBJECT, key(planner.state(), "preferences").handler());
    }

    @Test
    void theMcpExampleDeclaresTheReferenceServerWithAConfirmedToolUnderItsOfferedName() {
        AgentDefinition demo = AgentsFile.load(Path.of("examples/mcp-agents.yaml")).get(0);

        assertEquals("mcp-demo", demo.name());
        assertEquals(List.of("mcp:everything"), demo.toolSources().stream().map(ToolSource::id).toList());
        assertEquals(Set.of("mcp__everything__get-sum"), demo.confirmation().tools(),
                "confirm names the server's tool; the run asks about the name the LLM calls");
        assertTrue(demo.currentTools().isEmpty(), "nothing is listed before the registry starts the server");
    }

    @Test
    void anAgentNamesItsSubagentsWhereverTheFileDeclaresThem(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("agents.yaml"), """
                agents:
                  - name: supervisor
                    subagents: [researcher, writer]
                  - name: researcher
                    description: Finds facts.
                    stateless: true
                  - name: writer
                    subagents: [researcher]
                """);

        List<AgentDefinition> agents = AgentsFile.load(file);

        assertEquals(List.of("supervisor", "researcher", "writer"), agents.stream().map(AgentDefinition::name).toList());
        AgentDefinition supervisor = agents.get(0);
        assertEquals(List.of("researcher", "writer"), supervisor.subagents().stream().map(AgentDefinition::name)
                .toList());
        assertSame(agents.get(1), supervisor.subagents().get(0), "one definition, however often it is named");
        assertSame(agents.get(2), supervisor.subagents().get(1));
        assertSame(agents.get(1), agents.get(2).subagents().get(0));
    }

    @Test
    void anMcpServerTakesItsAddressAndHeadersFromVariablesAndHttpToolsAreTheAgentsToConfirm(@TempDir Path dir)
            throws IOException {
        Path file = Files.writeString(dir.resolve("agents.yaml"), """
                agents:
                  - name: support
                    mcpServers:
                      - {id: orders, url: '${ORDERS_URL}/mcp', headers: {X-Key: '${ORDERS_KEY}'}, prefix: false,
                         forwardUserToken: true, timeout: 500ms}
                    httpTools:
                      - {name: weather, url: 'http://127.0.0.1:1/w/{city}',
                         parameters: {type: object, properties: {city: {type: string}}}}
                    confirmation: {tools: [weather]}
                """);
        Map<String, String> variables = Map.of("ORDERS_URL", "http://orders:3001", "ORDERS_KEY", "k3y");

        AgentDefinition support = AgentsFile.load(file, name -> Optional.ofNullable(variables.get(name))).get(0);

        assertEquals(List.of("mcp:orders", "http"), support.toolSources().stream().map(ToolSource::id).toList());
        String described = support.toolSources().get(0).toString();
        assertFalse(described.contains("k3y"), "a header's value is never shown: " + described);
        assertEquals(List.of("weather"), List.copyOf(support.currentTools().keySet()));
        assertEquals(Set.of("weather"), support.confirmation().tools());
    }

    static Stream<Arguments> brokenFiles() {
        String agent = "agents:\n  - name: trip\n";
        String state = agent + "    state:\n      stops: {type: array}\n";
        String tool = "    stateTools:\n      - {name: set_stops, result: ok, writes: {stops: stops},"
                + " parameters: {type: object, properties: {stops: {type: array}}}}\n";
        return Stream.of(
                Arguments.of("unknown agent field", agent + "    descripton: typo\n",
                        "agents[0] 'trip': ", "unknown field 'descripton' (expected confirmation, description, httpTools, instructions, maxInputTokens, mcpServers, multitask, name,"),
                Arguments.of("busy-thread strategy that is none", agent + "    multitask: later\n",
                        "agents[0] 'trip': ", "multitask must be one of 'reject', 'enqueue', 'interrupt', 'rollback', 'steer', not 'later'"),
                Arguments.of("MCP server with a url and a command", agent + "    mcpServers:\n"
                                + "      - {id: orders, url: 'http://127.0.0.1:1/mcp', command: [node, s.js]}\n",
                        "agents[0] 'trip': ", "mcpServers[0] 'orders': declare either 'url' or 'command', not both"),
                Arguments.of("MCP header from a variable that is not set", agent + "    mcpServers:\n"
                                + "      - {id: orders, url: 'http://127.0.0.1:1/mcp', headers: {X-Key: '${AGUI_TEST_UNSET_KEY}'}}\n",
                        "agents[0] 'trip': ", "mcpServers[0] 'orders': headers.X-Key: ${AGUI_TEST_UNSET_KEY} is not set"),
                Arguments.of("MCP confirm outside its tools", agent + "    mcpServers:\n"
                                + "      - {id: orders, url: 'http://127.0.0.1:1/mcp', tools: [lookup], confirm: [refund]}\n",
                        "agents[0] 'trip': ", "mcpServers[0] 'orders': MCP server orders confirms tool 'refund', which"),
                Arguments.of("token forwarding to a process", agent + "    mcpServers:\n"
                                + "      - {id: local, command: [node, s.js], forwardUserToken: true}\n",
                        "agents[0] 'trip': ", "mcpServers[0] 'local': MCP server local: headers and forwardUserToken need a url"),
                Arguments.of("MCP timeout that is not a duration", agent + "    mcpServers:\n"
                                + "      - {id: orders, url: 'http://127.0.0.1:1/mcp', timeout: soon}\n",
                        "agents[0] 'trip': ", "mcpServers[0] 'orders': timeout: 'soon' is not a duration"),
                Arguments.of("HTTP tool placeholder that is not a parameter", agent + "    httpTools:\n"
                                + "      - {name: weather, url: 'http://127.0.0.1:1/w/{town}', parameters: {type: object, properties: {city: {type: string}}}}\n",
                        "agents[0] 'trip': ", "httpTools[0] 'weather': HTTP tool weather: url placeholder {town} is not one of"),
                Arguments.of("unknown nested field", state + "    stateTools:\n      - {name: x, reslt: ok}\n",
                        "agents[0] 'trip': ", "stateTools[0]: unknown field 'reslt'"),
                Arguments.of("unknown state key field", state.replace("{type: array}", "{typ: array}"),
                        "agents[0] 'trip': ", "state.stops: unknown field 'typ' (expected default, description, merge,"
                                + " type)"),
                Arguments.of("unknown top-level field", "agent:\n  - name: trip\n",
                        "", "unknown field 'agent' (expected agents)"),
                Arguments.of("no agents", "{}\n", "", "missing required field 'agents'"),
                Arguments.of("empty file", "", "", "the file is empty"),
                Arguments.of("not YAML", "agents: [name: x\n", "", "not valid YAML: expected ',' or ']', but"
                        + " got <stream end> while parsing a flow sequence (line 2, column 1)"),
                Arguments.of("a field written twice", state + "      stops: {type: object}\n",
                        "", "not valid YAML: Duplicate field 'stops' (line 5, column 12)"),
                Arguments.of("wrong shape", state + "    stateTools: {name: x}\n",
                        "agents[0] 'trip': ", "stateTools: expected a list"),
                Arguments.of("an empty list entry", state + "    stateTools: [~]\n",
                        "agents[0] 'trip': ", "stateTools[0]: expected an object"),
                Arguments.of("an empty agent entry", "agents: [~]\n", "", "agents[0]: expected an object"),
                Arguments.of("agent without a name", "agents:\n  - description: nameless\n",
                        "agents[0]: ", "missing required field 'name'"),
                Arguments.of("tool without a result", state + "    stateTools:\n      - {name: set_stops, writes: {}}\n",
                        "agents[0] 'trip': ", "stateTools[0] 'set_stops': missing required field 'result'"),
                Arguments.of("prediction without a tool", state + tool + "    predictive:\n      - {stateKey: stops}\n",
                        "agents[0] 'trip': ", "predictive[0]: missing required field 'tool'"),
                Arguments.of("bad type name", state.replace("array", "strin"),
                        "agents[0] 'trip': ", "state key 'stops': unknown JSON Schema type 'strin' (expected string,"),
                Arguments.of("bad merge name", state.replace("array}", "array, merge: append}"),
                        "agents[0] 'trip': ", "state key 'stops': unknown merge 'append' (expected replace,"),
                Arguments.of("default of another type", state.replace("array}", "array, default: {}}"),
                        "agents[0] 'trip': ", "the default of state key stops is object, but the key expects array"),
                Arguments.of("sub-agent that is not in the file", agent + "    subagents: [guide]\n",
                        "agents[0] 'trip': ", "subagents[0] 'guide': there is no agent named 'guide' in this file"),
                Arguments.of("sub-agents in a circle", agent + "    subagents: [guide]\n  - name: guide\n"
                                + "    subagents: [trip]\n",
                        "agents[1] 'guide': ", "subagents[0] 'trip': sub-agents may not call each other in a circle:"
                                + " trip -> guide -> trip"),
                Arguments.of("duplicate agent name", state + "  - name: trip\n",
                        "agents[1] 'trip': ", "the name is already used by agents[0] 'trip'"),
                Arguments.of("prediction of an undeclared tool",
                        state + tool + "    predictive:\n      - {stateKey: stops, tool: set_stop}\n",
                        "agents[0] 'trip': ", "predictive[0]: tool 'set_stop' is not one of this agent's stateTools"
                                + " [set_stops]"),
                Arguments.of("prediction of an undeclared argument", state + tool
                                + "    predictive:\n      - {stateKey: stops, tool: set_stops, toolArgument: stop}\n",
                        "agents[0] 'trip': ", "predictive[0]: argument 'stop' is not one of the parameters [stops]"),
                Arguments.of("write of an undeclared argument", state + tool.replace("{stops: stops}", "{stops: stop}"),
                        "agents[0] 'trip': ", "stateTools[0] 'set_stops': argument 'stop' is not one of the parameters"),
                Arguments.of("write of an undeclared state key", state + tool.replace("{stops: stops}", "{stop: stops}"),
                        "agents[0] 'trip': ", "uses state key 'stop', which the state schema does not declare"),
                Arguments.of("prediction of an undeclared state key",
                        state + tool + "    predictive:\n      - {stateKey: stop, tool: set_stops}\n",
                        "agents[0] 'trip': ", "uses state key 'stop', which the state schema does not declare"),
                Arguments.of("server-owned undeclared state key", state + "    serverOwned: [stop]\n",
                        "agents[0] 'trip': ", "server-owned key list of agent trip uses state key 'stop'"),
                Arguments.of("confirmation with unknown messages",
                        state + tool + "    confirmation: {messages: polite}\n", "agents[0] 'trip': ",
                        "confirmation: unknown messages 'polite' (expected one of [document, generic, recipe,"),
                Arguments.of("confirmation of a tool the agent lacks",
                        state + tool + "    confirmation: {tools: [book_hotel]}\n", "agents[0] 'trip': ",
                        "requires confirmation of tool 'book_hotel', which is not one of its backend tools"),
                Arguments.of("state tool of a stateless agent", agent + "    stateless: true\n" + tool,
                        "agents[0] 'trip': ", "uses state, but the agent is stateless"),
                Arguments.of("a stateless agent with a state schema", state + "    stateless: true\n",
                        "agents[0] 'trip': ", "a stateless agent declares no state"),
                Arguments.of("two-phase state without declared keys", agent + "    twoPhaseState: true\n    state: {}\n",
                        "agents[0] 'trip': ", "uses two-phase state, which needs a state schema with declared keys"),
                Arguments.of("invalid agent name", "agents:\n  - name: Trip Planner\n",
                        "agents[0] 'Trip Planner': ", "agent name must match"),
                Arguments.of("invalid tool name", state + tool.replace("name: set_stops", "name: set stops"),
                        "agents[0] 'trip': ", "stateTools[0] 'set stops': tool name must match"),
                Arguments.of("parameters that are not a schema object",
                        state + tool.replace("parameters: {type: object, properties: {stops: {type: array}}}",
                                "parameters: [stops]"),
                        "agents[0] 'trip': ", "stateTools[0] 'set_stops': parameters must be a JSON Schema object"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenFiles")
    void aBrokenFileIsRejectedNamingTheFileTheAgentAndTheProblem(String name, String content, String agent,
                                                                 String problem) throws IOException {
        Path file = write("my-agents.yaml", content);

        AgentsFileException e = assertThrows(AgentsFileException.class, () -> AgentsFile.load(file));

        assertTrue(e.getMessage().startsWith(file + ": " + agent), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
    }

    @Test
    void aJsonFileGetsJsonParsingAndErrors() throws IOException {
        Path file = write("my-agents.json", "{\"agents\": [\n  {\"name\": \"trip\",}\n]}");

        AgentsFileException e = assertThrows(AgentsFileException.class, () -> AgentsFile.load(file));

        assertTrue(e.getMessage().startsWith(file + ": not valid JSON: Unexpected character ('}'"), e.getMessage());
        assertTrue(e.getMessage().endsWith("(line 2, column 19)"), e.getMessage());
    }

    @Test
    void aMissingFileIsNamedWithWhereItWasLookedFor() {
        Path file = dir.resolve("nowhere.yaml");

        AgentsFileException e = assertThrows(AgentsFileException.class, () -> AgentsFile.load(file));

        assertEquals(file + ": no such file (looked for " + file.toAbsolutePath() + ")", e.getMessage());
        assertEquals(0, e.getStackTrace().length, "a start-up message, not a stack trace");
    }

    /** A definition in comparable form: handlers are lambdas, so tools show their result text and keys their merge. */
    private static String summary(AgentDefinition agent) {
        StringBuilder summary = new StringBuilder(agent.name()).append(' ').append(agent.description()).append(' ')
                .append(agent.instructions()).append(" raise=").append(agent.raiseOnToolFailure())
                .append(" twoPhase=").append(agent.twoPhaseState())
                .append(" serverOwned=").append(agent.serverOwnedKeys())
                .append(" confirmation=").append(agent.confirmation());
        if (agent.hasState()) {
            agent.state().keys().stream().sorted(Comparator.comparing(StateKey::name)).forEach(key -> summary
                    .append("\nkey ").append(key.name()).append(": ").append(key.typeDescription()).append(" '")
                    .append(key.description()).append("' default=").append(key.defaultValue())
                    .append(" merge=").append(mergeName(key.handler())));
        }
        agent.tools().values().stream().sorted(Comparator.comparing(BackendTool::name)).forEach(tool -> summary
                .append("\ntool ").append(tool.name()).append(": ").append(tool.description()).append(' ')
                .append(tool.parameters()).append(" writes ").append(tool.outputsToState())
                .append(" answers ").append(resultText(tool)));
        return summary.append("\npredicts ").append(agent.predictive()).toString();
    }

    private static String mergeName(BinaryOperator<JsonNode> handler) {
        return handler == MergeHandlers.REPLACE ? "replace" : handler == MergeHandlers.CONCATENATE ? "concatenate"
                : handler == MergeHandlers.MERGE_OBJECT ? "mergeObject" : "custom";
    }

    private static String resultText(BackendTool tool) {
        return ToolInvoker.invoke(tool, "{}", Map.of(), null).await().indefinitely().content().text();
    }

    private static StateKey key(StateSchema schema, String name) {
        return schema.key(name).orElseThrow();
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    private static JsonNode json(String text) throws IOException {
        return JSON.readTree(text);
    }
}
