package dev.aguistate.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Wire JSON of every AG-UI event. Expected JSON is written by hand from the protocol reference
 * ({@code agui-protocol.md} §1–§2) and compared as trees, so field order does not matter.
 */
@Execution(ExecutionMode.CONCURRENT)
class AgUiEventJsonTest {

    /** An independent plain mapper: expectations must not depend on {@link AgUiJson}'s configuration. */
    private static final ObjectMapper PLAIN = new ObjectMapper();

    record Case(AgUiEvent event, String expectedJson) {
        @Override
        public String toString() {
            return event.type().name();
        }
    }

    // ------------------------------------------------------------------ helpers

    static JsonNode json(String text) {
        try {
            return PLAIN.readTree(text);
        } catch (JsonProcessingException e) {
            throw new AssertionError("bad JSON in test: " + text, e);
        }
    }

    /** Serializes with AgUiJson and parses the result with the independent mapper. */
    static JsonNode written(Object value) {
        return json(AgUiJson.write(value));
    }

    static void assertWire(String expectedJson, AgUiEvent event) {
        assertEquals(json(expectedJson), written(event), () -> "wire JSON of " + event);
    }

    static void assertRoundTrip(AgUiEvent event) throws JsonProcessingException {
        assertEquals(event, AgUiJson.read(AgUiJson.write(event), AgUiEvent.class));
    }

    static final TokenUsage FULL_USAGE = new TokenUsage("openai", "gpt-4o", 10, 5, 15, 2, 3);
    static final String FULL_USAGE_JSON = """
            {"provider":"openai","model":"gpt-4o","inputTokens":10,"outputTokens":5,"totalTokens":15,
             "reasoningTokens":2,"cachedInputTokens":3}""";

    // ------------------------------------------------------------------ the 36 events, fully populated

    static List<Case> allEvents() {
        List<Case> cases = new ArrayList<>();

        // ---- lifecycle
        RunAgentInput input = new RunAgentInput("t1", "r2", null, "r1", json("{\"count\":1}"),
                List.of(new Message.User("u1", "hi")),
                List.of(new Tool("get_weather", "Get the weather",
                        json("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}"), null)),
                List.of(new Context("Name of the user", "Bob")),
                json("{\"k\":\"v\"}"),
                List.of(new ResumeEntry("i1", "resolved", json("{\"ok\":true}"), null)));
        cases.add(new Case(new AgUiEvent.RunStarted("t1", "r2", "r1", input), """
                {"type":"RUN_STARTED","threadId":"t1","runId":"r2","protocolVersion":"1.0","parentRunId":"r1",
                 "input":{"threadId":"t1","runId":"r2","parentRunId":"r1","state":{"count":1},
                          "messages":[{"id":"u1","role":"user","content":"hi"}],
                          "tools":[{"name":"get_weather","description":"Get the weather",
                                    "parameters":{"type":"object","properties":{"city":{"type":"string"}}}}],
                          "context":[{"description":"Name of the user","value":"Bob"}],
                          "forwardedProps":{"k":"v"},
                          "resume":[{"interruptId":"i1","status":"resolved","payload":{"ok":true}}]}}"""));
        cases.add(new Case(new AgUiEvent.RunFinished("t1", "r1", json("{\"answer\":42}"), RunOutcome.SUCCESS,
                List.of(FULL_USAGE)), """
                {"type":"RUN_FINISHED","threadId":"t1","runId":"r1","result":{"answer":42},
                 "outcome":{"type":"success"},"usage":[%s]}""".formatted(FULL_USAGE_JSON)));
        cases.add(new Case(new AgUiEvent.RunError("upstream failed", "upstream_error", List.of(FULL_USAGE)), """
                {"type":"RUN_ERROR","message":"upstream failed","code":"upstream_error","usage":[%s]}"""
                .formatted(FULL_USAGE_JSON)));
        cases.add(new Case(new AgUiEvent.StepStarted("plan"), """
                {"type":"STEP_STARTED","stepName":"plan"}"""));
        cases.add(new Case(new AgUiEvent.StepFinished("plan"), """
                {"type":"STEP_FINISHED","stepName":"plan"}"""));

        // ---- text messages
        cases.add(new Case(new AgUiEvent.TextMessageStart("m1", "assistant", "helper"), """
                {"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant","name":"helper"}"""));
        cases.add(new Case(new AgUiEvent.TextMessageContent("m1", "Hello"), """
                {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello"}"""));
        cases.add(new Case(new AgUiEvent.TextMessageEnd("m1"), """
                {"type":"TEXT_MESSAGE_END","messageId":"m1"}"""));
        cases.add(new Case(new AgUiEvent.TextMessageChunk("m1", "assistant", "Hel", "helper"), """
                {"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","role":"assistant","delta":"Hel","name":"helper"}"""));

        // ---- tool calls
        cases.add(new Case(new AgUiEvent.ToolCallStart("c1", "get_weather", "m1"), """
                {"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"get_weather","parentMessageId":"m1"}"""));
        cases.add(new Case(new AgUiEvent.ToolCallArgs("c1", "{\"city\":"), """
                {"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\\"city\\":"}"""));
        cases.add(new Case(new AgUiEvent.ToolCallEnd("c1"), """
                {"type":"TOOL_CALL_END","toolCallId":"c1"}"""));
        cases.add(new Case(new AgUiEvent.ToolCallResult("m2", "c1", "{\"temp\":21}"), """
                {"type":"TOOL_CALL_RESULT","messageId":"m2","toolCallId":"c1","content":"{\\"temp\\":21}","role":"tool"}"""));
        cases.add(new Case(new AgUiEvent.ToolCallChunk("c1", "get_weather", "m1", "{}"), """
                {"type":"TOOL_CALL_CHUNK","toolCallId":"c1","toolCallName":"get_weather","parentMessageId":"m1",
                 "delta":"{}"}"""));

        // ---- state and messages
        cases.add(new Case(new AgUiEvent.StateSnapshot(json("{\"count\":1,\"items\":[\"a\"]}")), """
                {"type":"STATE_SNAPSHOT","snapshot":{"count":1,"items":["a"]}}"""));
        cases.add(new Case(new AgUiEvent.StateDelta(List.of(
                PatchOperation.add("/items/1", json("\"b\"")),
                PatchOperation.remove("/old"),
                PatchOperation.replace("/count", json("2")),
                new PatchOperation("move", "/b", null, "/a"),
                new PatchOperation("copy", "/c", null, "/b"),
                new PatchOperation("test", "/count", json("2"), null))), """
                {"type":"STATE_DELTA","delta":[
                  {"op":"add","path":"/items/1","value":"b"},
                  {"op":"remove","path":"/old"},
                  {"op":"replace","path":"/count","value":2},
                  {"op":"move","path":"/b","from":"/a"},
                  {"op":"copy","path":"/c","from":"/b"},
                  {"op":"test","path":"/count","value":2}]}"""));
        cases.add(new Case(new AgUiEvent.MessagesSnapshot(List.of(
                new Message.User("u1", "hi"),
                new Message.Assistant("a1", "Hello!", null))), """
                {"type":"MESSAGES_SNAPSHOT","messages":[
                  {"id":"u1","role":"user","content":"hi"},
                  {"id":"a1","role":"assistant","content":"Hello!"}]}"""));

        // ---- activity
        cases.add(new Case(new AgUiEvent.ActivitySnapshot("m3", "a2ui-surface", json("{\"title\":\"x\"}"), false), """
                {"type":"ACTIVITY_SNAPSHOT","messageId":"m3","activityType":"a2ui-surface",
                 "content":{"title":"x"},"replace":false}"""));
        cases.add(new Case(new AgUiEvent.ActivityDelta("m3", "a2ui-surface",
                List.of(PatchOperation.replace("/title", json("\"y\"")))), """
                {"type":"ACTIVITY_DELTA","messageId":"m3","activityType":"a2ui-surface",
                 "patch":[{"op":"replace","path":"/title","value":"y"}]}"""));

        // ---- special
        cases.add(new Case(new AgUiEvent.Raw(json("{\"id\":\"chatcmpl-1\",\"n\":[1,2]}"), "openai"), """
                {"type":"RAW","event":{"id":"chatcmpl-1","n":[1,2]},"source":"openai"}"""));
        cases.add(new Case(new AgUiEvent.Custom("PredictState",
                json("[{\"state_key\":\"doc\",\"tool\":\"write_doc\",\"tool_argument\":\"text\"}]")), """
                {"type":"CUSTOM","name":"PredictState",
                 "value":[{"state_key":"doc","tool":"write_doc","tool_argument":"text"}]}"""));

        // ---- reasoning
        cases.add(new Case(new AgUiEvent.ReasoningStart("reasoning-001"), """
                {"type":"REASONING_START","messageId":"reasoning-001"}"""));
        cases.add(new Case(new AgUiEvent.ReasoningMessageStart("msg-123", "reasoning"), """
                {"type":"REASONING_MESSAGE_START","messageId":"msg-123","role":"reasoning"}"""));
        cases.add(new Case(new AgUiEvent.ReasoningMessageContent("msg-123", "Let me think"), """
                {"type":"REASONING_MESSAGE_CONTENT","messageId":"msg-123","delta":"Let me think"}"""));
        cases.add(new Case(new AgUiEvent.ReasoningMessageEnd("msg-123"), """
                {"type":"REASONING_MESSAGE_END","messageId":"msg-123"}"""));
        cases.add(new Case(new AgUiEvent.ReasoningMessageChunk("msg-123", "more"), """
                {"type":"REASONING_MESSAGE_CHUNK","messageId":"msg-123","delta":"more"}"""));
        cases.add(new Case(new AgUiEvent.ReasoningEnd("reasoning-001"), """
                {"type":"REASONING_END","messageId":"reasoning-001"}"""));
        cases.add(new Case(new AgUiEvent.ReasoningEncryptedValue("tool-call", "c1", "ZW5j"), """
                {"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c1","encryptedValue":"ZW5j"}"""));

        // ---- sub-agents
        cases.add(new Case(new AgUiEvent.SubagentStarted("sa1", "researcher", "Finds facts", "sa0", "c1", "m1"), """
                {"type":"SUBAGENT_STARTED","subagentRunId":"sa1","name":"researcher","description":"Finds facts",
                 "parentSubagentRunId":"sa0","parentToolCallId":"c1","parentMessageId":"m1"}"""));
        cases.add(new Case(new AgUiEvent.SubagentFinished("sa1", json("\"Otters hold hands.\"")), """
                {"type":"SUBAGENT_FINISHED","subagentRunId":"sa1","result":"Otters hold hands."}"""));
        cases.add(new Case(new AgUiEvent.SubagentError("sa1", "The tool failed.", "tool_failed"), """
                {"type":"SUBAGENT_ERROR","subagentRunId":"sa1","message":"The tool failed.","code":"tool_failed"}"""));

        // ---- deprecated thinking
        cases.add(new Case(new AgUiEvent.ThinkingStart("Planning"), """
                {"type":"THINKING_START","title":"Planning"}"""));
        cases.add(new Case(new AgUiEvent.ThinkingEnd(), """
                {"type":"THINKING_END"}"""));
        cases.add(new Case(new AgUiEvent.ThinkingTextMessageStart(), """
                {"type":"THINKING_TEXT_MESSAGE_START"}"""));
        cases.add(new Case(new AgUiEvent.ThinkingTextMessageContent("hmm"), """
                {"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"hmm"}"""));
        cases.add(new Case(new AgUiEvent.ThinkingTextMessageEnd(), """
                {"type":"THINKING_TEXT_MESSAGE_END"}"""));
        return cases;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allEvents")
    void writesExactWireJson(Case c) {
        assertWire(c.expectedJson(), c.event());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allEvents")
    void roundTripsThroughItsOwnJson(Case c) throws JsonProcessingException {
        assertRoundTrip(c.event());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allEvents")
    void readsHandWrittenWireJson(Case c) throws JsonProcessingException {
        assertEquals(c.event(), AgUiJson.read(json(c.expectedJson()).toString(), AgUiEvent.class));
    }

    // ------------------------------------------------------------------ coverage and registration

    @Test
    void everyEventTypeHasAWireTest() {
        Set<EventType> covered = allEvents().stream().map(c -> c.event().type())
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(EventType.class)));
        assertEquals(EnumSet.allOf(EventType.class), covered);
        assertEquals(36, EventType.values().length);
        assertEquals(36, allEvents().size(), "one case per event type");
    }

    @Test
    void typeAccessorAgreesWithJsonSubTypesName() {
        Map<Class<?>, String> registered = new HashMap<>();
        for (JsonSubTypes.Type t : AgUiEvent.class.getAnnotation(JsonSubTypes.class).value()) {
            String previous = registered.put(t.value(), t.name());
            assertEquals(null, previous, "registered twice: " + t.value().getSimpleName());
        }
        Set<Class<?>> permitted = Set.of(AgUiEvent.class.getPermittedSubclasses());
        assertEquals(permitted, registered.keySet(), "every event record is registered for JSON");
        assertEquals(EnumSet.allOf(EventType.class).stream().map(Enum::name).collect(Collectors.toSet()),
                Set.copyOf(registered.values()), "registered names are exactly the EventType names");
        for (Case c : allEvents()) {
            assertEquals(registered.get(c.event().getClass()), c.event().type().name(),
                    c.event().getClass().getSimpleName() + ".type()");
            assertEquals(c.event().type().name(), written(c.event()).get("type").asText());
        }
    }

    /** The server tells its own logged and framed events apart by their first bytes: the type is written first. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("allEvents")
    void theWrittenStartTellsTheTypeAndWhetherTheEventEndsItsRun(Case c) {
        String json = AgUiJson.write(c.event());
        byte[] frame = SseFrames.frame("run:7", AgUiJson.writeBytes(c.event()));
        int data = "id: run:7\ndata: ".length();
        for (EventType type : EventType.values()) {
            boolean own = type == c.event().type();
            assertEquals(own, type.begins(json), type + " begins " + json);
            assertEquals(own, type.begins(frame, data), type + " begins the frame of " + json);
        }
        assertEquals(c.event() instanceof AgUiEvent.RunFinished || c.event() instanceof AgUiEvent.RunError,
                c.event().endsRun(), json);
    }

    /** An event serialized straight into its frame is the frame of its JSON, whose place and id the frame tells. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("allEvents")
    void anEventSerializedIntoItsFrameIsTheFrameOfItsJson(Case c) {
        String json = AgUiJson.write(c.event());
        for (String id : new String[] {"2s.41", "rün:7", null}) {
            byte[] frame = SseFrames.frame(id, c.event());
            String expected = (id == null ? "" : "id: " + id + "\n") + "data: " + json + "\n\n";
            assertEquals(expected, new String(frame, StandardCharsets.UTF_8));
            assertArrayEquals(SseFrames.frame(id, json.getBytes(StandardCharsets.UTF_8)), frame);
            assertEquals(json, new String(frame, SseFrames.jsonStart(frame),
                    SseFrames.jsonEnd(frame) - SseFrames.jsonStart(frame), StandardCharsets.UTF_8));
            assertEquals(id, SseFrames.id(frame));
        }
    }

    // ------------------------------------------------------------------ optional fields: omitted, never null

    static Stream<Case> eventsWithNullOptionals() {
        return Stream.of(
                new Case(new AgUiEvent.RunStarted("t", "r", null, null, null, null), """
                        {"type":"RUN_STARTED","threadId":"t","runId":"r"}"""),
                new Case(new AgUiEvent.RunFinished("t", "r", null, null, null), """
                        {"type":"RUN_FINISHED","threadId":"t","runId":"r"}"""),
                new Case(new AgUiEvent.RunError("boom", "upstream_error"), """
                        {"type":"RUN_ERROR","message":"boom","code":"upstream_error"}"""),
                new Case(new AgUiEvent.RunError("boom", null, null), """
                        {"type":"RUN_ERROR","message":"boom"}"""),
                new Case(new AgUiEvent.TextMessageStart("m1", "assistant", null), """
                        {"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"""),
                new Case(AgUiEvent.TextMessageStart.assistant("m1"), """
                        {"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"""),
                new Case(new AgUiEvent.TextMessageStart("m1", null, null), """
                        {"type":"TEXT_MESSAGE_START","messageId":"m1"}"""),
                new Case(new AgUiEvent.TextMessageChunk("m1", null, null, null), """
                        {"type":"TEXT_MESSAGE_CHUNK","messageId":"m1"}"""),
                new Case(new AgUiEvent.ToolCallStart("c1", "get_weather", null), """
                        {"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"get_weather"}"""),
                new Case(new AgUiEvent.ToolCallChunk(null, null, null, "{}"), """
                        {"type":"TOOL_CALL_CHUNK","delta":"{}"}"""),
                new Case(new AgUiEvent.ActivitySnapshot("m3", "mcp-apps", json("{}"), null), """
                        {"type":"ACTIVITY_SNAPSHOT","messageId":"m3","activityType":"mcp-apps","content":{}}"""),
                new Case(new AgUiEvent.Raw(json("{}"), null), """
                        {"type":"RAW","event":{}}"""),
                new Case(new AgUiEvent.ReasoningMessageChunk(null, "x"), """
                        {"type":"REASONING_MESSAGE_CHUNK","delta":"x"}"""),
                new Case(new AgUiEvent.ThinkingStart(null), """
                        {"type":"THINKING_START"}"""),
                new Case(new AgUiEvent.RunFinished("t", "r", null, new RunOutcome.Interrupted(List.of(
                        new Interrupt("int-1", "confirm", null, null, null, null, null))), null), """
                        {"type":"RUN_FINISHED","threadId":"t","runId":"r",
                         "outcome":{"type":"interrupt","interrupts":[{"id":"int-1","reason":"confirm"}]}}"""),
                new Case(new AgUiEvent.RunFinished("t", "r", null, new RunOutcome.Interrupted(List.of(
                        new Interrupt("int-1", "tool_call", null, "p1", null, null, json("{\"parentToolCallId\":\"c1\"}"),
                                "sa1"))), null), """
                        {"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[
                         {"id":"int-1","reason":"tool_call","toolCallId":"p1","metadata":{"parentToolCallId":"c1"},
                          "subagentRunId":"sa1"}]}}"""),
                new Case(new AgUiEvent.SubagentFinished("sa1", null,
                        new AgUiEvent.SubagentFinished.Suspended(List.of("confirm_1"))), """
                        {"type":"SUBAGENT_FINISHED","subagentRunId":"sa1",
                         "outcome":{"type":"suspended","interruptIds":["confirm_1"]}}"""),
                new Case(new AgUiEvent.RunFinished("t", "r", null, null,
                        List.of(new TokenUsage(null, null, 1, null, null, null, null))), """
                        {"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"inputTokens":1}]}"""),
                new Case(new AgUiEvent.MessagesSnapshot(List.of(
                        new Message.Assistant("a1", null, List.of(new ToolCall("c1", "f", "{}"))),
                        new Message.Tool("t1", "ok", "c1"),
                        new Message.Reasoning("r1", "hmm", null, null))), """
                        {"type":"MESSAGES_SNAPSHOT","messages":[
                          {"id":"a1","role":"assistant",
                           "toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},
                          {"id":"t1","role":"tool","content":"ok","toolCallId":"c1"},
                          {"id":"r1","role":"reasoning","content":"hmm"}]}"""),
                new Case(new AgUiEvent.RunStarted("t", "r", null, new RunAgentInput("t", "r", null, null, null,
                        List.of(), List.of(new Tool("noop", "does nothing", null, null)), List.of(), null,
                        List.of(new ResumeEntry("i1", "cancelled", null, null)))), """
                        {"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.0",
                         "input":{"threadId":"t","runId":"r","messages":[],
                                  "tools":[{"name":"noop","description":"does nothing"}],"context":[],
                                  "resume":[{"interruptId":"i1","status":"cancelled"}]}}"""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eventsWithNullOptionals")
    void omitsNullOptionalFields(Case c) throws JsonProcessingException {
        assertWire(c.expectedJson(), c.event());
        assertFalse(AgUiJson.write(c.event()).contains("null"), "no null anywhere: " + AgUiJson.write(c.event()));
        assertRoundTrip(c.event());
    }

    // ------------------------------------------------------------------ null inside free JSON is kept

    @Test
    void keepsNullsInsideStateSnapshot() throws JsonProcessingException {
        AgUiEvent event = new AgUiEvent.StateSnapshot(json("{\"a\":null,\"b\":[null]}"));
        assertWire("""
                {"type":"STATE_SNAPSHOT","snapshot":{"a":null,"b":[null]}}""", event);
        assertRoundTrip(event);
    }

    @Test
    void writesStateSnapshotOfJsonNull() throws JsonProcessingException {
        AgUiEvent event = new AgUiEvent.StateSnapshot(NullNode.getInstance());
        assertWire("""
                {"type":"STATE_SNAPSHOT","snapshot":null}""", event);
        assertTrue(written(event).has("snapshot"), "snapshot is required even when it is JSON null");
        assertRoundTrip(event);
    }

    @Test
    void stateDeltaKeepsNullValueButRemoveHasNoValueKey() throws JsonProcessingException {
        AgUiEvent event = new AgUiEvent.StateDelta(List.of(
                PatchOperation.replace("/a", NullNode.getInstance()),
                PatchOperation.remove("/b")));
        assertWire("""
                {"type":"STATE_DELTA","delta":[
                  {"op":"replace","path":"/a","value":null},
                  {"op":"remove","path":"/b"}]}""", event);
        JsonNode delta = written(event).get("delta");
        assertTrue(delta.get(0).has("value") && delta.get(0).get("value").isNull());
        assertFalse(delta.get(1).has("value"));
        assertRoundTrip(event);
    }

    @Test
    void keepsNullsInsideRunFinishedResult() throws JsonProcessingException {
        AgUiEvent event = new AgUiEvent.RunFinished("t", "r", json("{\"answer\":null,\"list\":[1,null]}"),
                RunOutcome.SUCCESS, null);
        assertWire("""
                {"type":"RUN_FINISHED","threadId":"t","runId":"r","result":{"answer":null,"list":[1,null]},
                 "outcome":{"type":"success"}}""", event);
        assertRoundTrip(event);
    }

    @Test
    void keepsCustomValueOfJsonNull() throws JsonProcessingException {
        AgUiEvent event = new AgUiEvent.Custom("ping", NullNode.getInstance());
        assertWire("""
                {"type":"CUSTOM","name":"ping","value":null}""", event);
        assertRoundTrip(event);
    }

    // ------------------------------------------------------------------ RUN_FINISHED outcome and usage

    @Test
    void successOutcomeIsTypeOnly() throws JsonProcessingException {
        AgUiEvent event = new AgUiEvent.RunFinished("t", "r", null, RunOutcome.SUCCESS, null);
        assertWire("""
                {"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"success"}}""", event);
        assertEquals(json("{\"type\":\"success\"}"), written(new RunOutcome.Success()));
        assertRoundTrip(event);
    }

    @Test
    void successOutcomeNamesThePendingToolCallsWhenThereAreAny() throws JsonProcessingException {
        AgUiEvent event = new AgUiEvent.RunFinished("t", "r", null, new RunOutcome.Success(List.of("c1", "c2")), null);
        assertWire("""
                {"type":"RUN_FINISHED","threadId":"t","runId":"r",
                 "outcome":{"type":"success","pendingToolCallIds":["c1","c2"]}}""", event);
        assertRoundTrip(event);
        assertEquals(json("{\"type\":\"success\"}"), written(new RunOutcome.Success(List.of())),
                "an empty list is no pending call: omitted");
    }

    @Test
    void interruptOutcomeWithFullInterruptRoundTrips() throws JsonProcessingException {
        Interrupt interrupt = new Interrupt("int-1", "tool_call", "Approve sending the email?", "c1",
                json("{\"type\":\"object\",\"properties\":{\"approved\":{\"type\":\"boolean\"}},\"required\":[\"approved\"]}"),
                "2026-09-01T12:00:00Z", json("{\"source\":\"hitl\"}"));
        AgUiEvent event = new AgUiEvent.RunFinished("t", "r", null,
                new RunOutcome.Interrupted(List.of(interrupt)),
                List.of(FULL_USAGE, new TokenUsage("anthropic", "claude", 1, 2, 3, null, null)));
        assertWire("""
                {"type":"RUN_FINISHED","threadId":"t","runId":"r",
                 "outcome":{"type":"interrupt","interrupts":[
                   {"id":"int-1","reason":"tool_call","message":"Approve sending the email?","toolCallId":"c1",
                    "responseSchema":{"type":"object","properties":{"approved":{"type":"boolean"}},"required":["approved"]},
                    "expiresAt":"2026-09-01T12:00:00Z","metadata":{"source":"hitl"}}]},
                 "usage":[%s,
                          {"provider":"anthropic","model":"claude","inputTokens":1,"outputTokens":2,"totalTokens":3}]}"""
                .formatted(FULL_USAGE_JSON), event);
        assertRoundTrip(event);
    }

    // ------------------------------------------------------------------ content parts in tool results (AG-UI 1.0)

    @Test
    void toolCallResultCarriesContentPartsAsGiven() throws JsonProcessingException {
        AgUiEvent event = new AgUiEvent.ToolCallResult("m2", "c1", new MessageContent.Parts(List.of(
                new InputContent.TextPart("chart", "p1", json("{\"k\":1}")),
                new InputContent.MediaPart("image", "p2", new InputContent.Source("data", "aGk=", "image/png"), null),
                new InputContent.MediaPart("video", new InputContent.Source("url", "https://x/v.mp4", null), null),
                new InputContent.MediaPart("audio", new InputContent.Source("file", "file-123", null, "openai"),
                        null))), "tool");
        assertWire("""
                {"type":"TOOL_CALL_RESULT","messageId":"m2","toolCallId":"c1","role":"tool","content":[
                  {"type":"text","text":"chart","id":"p1","metadata":{"k":1}},
                  {"type":"image","id":"p2","source":{"type":"data","value":"aGk=","mimeType":"image/png"}},
                  {"type":"video","source":{"type":"url","value":"https://x/v.mp4"}},
                  {"type":"audio","source":{"type":"file","value":"file-123","provider":"openai"}}]}""", event);
        assertRoundTrip(event);
    }

    // ------------------------------------------------------------------ producer's protocol version

    @Test
    void runStartedOfThisServerStatesTheProtocolVersionItProduces() {
        assertEquals("1.0", written(new AgUiEvent.RunStarted("t", "r")).path("protocolVersion").asText());
    }

    // ------------------------------------------------------------------ fixed roles

    @Test
    void reasoningMessageStartAlwaysHasReasoningRole() throws JsonProcessingException {
        AgUiEvent event = new AgUiEvent.ReasoningMessageStart("msg-1");
        assertWire("""
                {"type":"REASONING_MESSAGE_START","messageId":"msg-1","role":"reasoning"}""", event);
        assertRoundTrip(event);
    }

    @Test
    void reasoningMessageStartWritesReasoningRoleEvenWhenConstructedWithNull() {
        // role is a required literal on the wire; ToolCall defaults its "function" type the same way
        assertWire("""
                {"type":"REASONING_MESSAGE_START","messageId":"msg-1","role":"reasoning"}""",
                new AgUiEvent.ReasoningMessageStart("msg-1", null));
    }

    @Test
    void toolCallResultHasToolRoleAndStringContent() throws JsonProcessingException {
        AgUiEvent event = new AgUiEvent.ToolCallResult("m9", "c1", "{\"temp\":21}");
        assertWire("""
                {"type":"TOOL_CALL_RESULT","messageId":"m9","toolCallId":"c1","content":"{\\"temp\\":21}","role":"tool"}""",
                event);
        assertTrue(written(event).get("content").isTextual(), "content is a string, never an object");
        assertRoundTrip(event);
    }

    // ------------------------------------------------------------------ messages snapshot: all seven roles

    @Test
    void messagesSnapshotWithAllSevenRolesRoundTrips() throws JsonProcessingException {
        MessageContent multimodal = new MessageContent.Parts(List.of(
                new InputContent.TextPart("What is in this picture?"),
                new InputContent.MediaPart("image",
                        new InputContent.Source("url", "https://example.com/cat.png", null), null),
                new InputContent.MediaPart("audio",
                        new InputContent.Source("data", "aGk=", "audio/wav"), json("{\"lang\":\"en\"}")),
                new InputContent.BinaryPart("image/png", null, "https://example.com/x.png", null, "x.png")));
        AgUiEvent event = new AgUiEvent.MessagesSnapshot(List.of(
                new Message.Developer("d1", "Be terse", "dev", "ZW5jRA==", json("{\"k\":1}")),
                new Message.System("s1", "You are helpful", "sys", null, null),
                new Message.User("u1", multimodal, "alice", null, null),
                new Message.Assistant("a1", null, List.of(new ToolCall("c1", "get_weather", "{\"city\":\"Paris\"}"))),
                new Message.Assistant("a2", "Done", List.of(new ToolCall("c2", "function",
                        new ToolCall.Function("f", "{}"), "ZW5jVA==", json("{\"m\":true}"))),
                        "bot", "ZW5jQQ==", json("{\"x\":[]}")),
                new Message.Tool("t1", new MessageContent.Text("{\"temp\":21}"), "c1", "timeout", null, null),
                new Message.Activity("ac1", "a2ui-surface", json("{\"title\":\"x\"}"), null),
                new Message.Reasoning("r1", "thinking...", "ZW5jUg==", null)));
        assertWire("""
                {"type":"MESSAGES_SNAPSHOT","messages":[
                  {"id":"d1","role":"developer","content":"Be terse","name":"dev","encryptedValue":"ZW5jRA==",
                   "metadata":{"k":1}},
                  {"id":"s1","role":"system","content":"You are helpful","name":"sys"},
                  {"id":"u1","role":"user","name":"alice","content":[
                     {"type":"text","text":"What is in this picture?"},
                     {"type":"image","source":{"type":"url","value":"https://example.com/cat.png"}},
                     {"type":"audio","source":{"type":"data","value":"aGk=","mimeType":"audio/wav"},
                      "metadata":{"lang":"en"}},
                     {"type":"binary","mimeType":"image/png","url":"https://example.com/x.png","filename":"x.png"}]},
                  {"id":"a1","role":"assistant","toolCalls":[
                     {"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Paris\\"}"}}]},
                  {"id":"a2","role":"assistant","content":"Done","name":"bot","encryptedValue":"ZW5jQQ==",
                   "metadata":{"x":[]},"toolCalls":[
                     {"id":"c2","type":"function","function":{"name":"f","arguments":"{}"},
                      "encryptedValue":"ZW5jVA==","metadata":{"m":true}}]},
                  {"id":"t1","role":"tool","content":"{\\"temp\\":21}","toolCallId":"c1","error":"timeout"},
                  {"id":"ac1","role":"activity","activityType":"a2ui-surface","content":{"title":"x"}},
                  {"id":"r1","role":"reasoning","content":"thinking...","encryptedValue":"ZW5jUg=="}]}""", event);
        assertRoundTrip(event);
    }

    @Test
    void toolCallTypeDefaultsToFunction() {
        assertEquals(json("""
                {"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}"""),
                written(new ToolCall("c1", null, new ToolCall.Function("f", "{}"), null, null)));
    }

    // ------------------------------------------------------------------ SSE framing

    static String frame(AgUiEvent event) {
        return new String(SseFrames.frame(event), StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allEvents")
    void frameIsOneDataLineOfCompactJson(Case c) {
        String frame = frame(c.event());
        assertTrue(frame.startsWith("data: "), frame);
        assertTrue(frame.endsWith("\n\n"), frame);
        String body = frame.substring("data: ".length(), frame.length() - 2);
        assertFalse(body.contains("\n") || body.contains("\r"), "one line, LF only: " + frame);
        assertEquals(json(c.expectedJson()), json(body));
        assertEquals(json(body).toString(), body, "compact JSON (no insignificant whitespace)");
    }

    @Test
    void frameOfMultilineUnicodeDeltaIsStillOneDataLine() {
        String delta = "line1\nline2\r\nline3 ✓ \u2028 end \"q\" \\ \t";
        AgUiEvent event = new AgUiEvent.TextMessageContent("m1", delta);
        String frame = frame(event);

        assertEquals("data: " + AgUiJson.write(event) + "\n\n", frame);
        assertFalse(frame.contains("\r"), "no CR anywhere in the frame");
        assertEquals(2, frame.chars().filter(ch -> ch == '\n').count(), "only the terminating blank line");
        assertFalse(frame.substring(0, frame.length() - 2).contains("\n"));

        String body = frame.substring("data: ".length(), frame.length() - 2);
        JsonNode parsed = json(body);
        assertEquals(delta, parsed.get("delta").asText(), "delta survives byte for byte");
        assertEquals("TEXT_MESSAGE_CONTENT", parsed.get("type").asText());
        assertEquals("m1", parsed.get("messageId").asText());
    }

    @Test
    void frameBytesAreUtf8() {
        AgUiEvent event = new AgUiEvent.TextMessageContent("m1", "✓ é 😀");
        byte[] bytes = SseFrames.frame(event);
        String expected = "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"✓ é 😀\"}\n\n";
        // field order is not part of the contract, so compare the decoded JSON as well as the UTF-8 encoding
        String decoded = new String(bytes, StandardCharsets.UTF_8);
        assertEquals(json(expected.substring(6).trim()), json(decoded.substring(6).trim()));
        assertEquals(decoded.getBytes(StandardCharsets.UTF_8).length, bytes.length, "valid UTF-8");
    }

    @Test
    void keepAliveIsAnSseComment() {
        String keepAlive = new String(SseFrames.keepAlive(), StandardCharsets.UTF_8);
        assertNotNull(keepAlive);
        assertTrue(keepAlive.startsWith(":"), keepAlive);
        assertTrue(keepAlive.endsWith("\n\n"), keepAlive);
        assertFalse(keepAlive.contains("\r"));
        assertFalse(keepAlive.substring(0, keepAlive.length() - 2).contains("\n"), "a single comment line");
        assertEquals("text/event-stream", SseFrames.CONTENT_TYPE);
    }
}
