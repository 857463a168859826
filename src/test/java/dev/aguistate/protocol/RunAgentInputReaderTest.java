package dev.aguistate.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Parsing and validating run request bodies ({@code agui-protocol.md} §2). */
@Execution(ExecutionMode.CONCURRENT)
class RunAgentInputReaderTest {

    private static final ObjectMapper PLAIN = new ObjectMapper();

    // ------------------------------------------------------------------ helpers

    static RunAgentInput read(String body) {
        return RunAgentInputReader.read(body.getBytes(StandardCharsets.UTF_8));
    }

    /** A valid body with the given messages JSON array and extra top-level members (may be empty). */
    static String body(String messages, String extra) {
        return "{\"threadId\":\"t1\",\"runId\":\"r1\",\"messages\":" + messages
                + (extra.isEmpty() ? "" : "," + extra) + "}";
    }

    static RunAgentInput readMessages(String messages) {
        return read(body(messages, ""));
    }

    static JsonNode json(String text) {
        try {
            return PLAIN.readTree(text);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    /** Asserts the body is rejected, as malformed JSON or not, with a message naming every given fragment. */
    static InvalidRunInput assertRejected(String body, boolean malformedJson, String... mentions) {
        InvalidRunInput e = assertThrows(InvalidRunInput.class, () -> read(body), body);
        String message = e.getMessage();
        assertEquals(malformedJson, e.malformedJson(), () -> "malformedJson for " + body + " -> " + message);
        for (String mention : mentions) {
            assertTrue(message.contains(mention), () -> "message should name '" + mention + "': " + message);
        }
        assertNoInternals(message);
        return e;
    }

    static void assertNoInternals(String message) {
        assertFalse(message.contains("dev.aguistate"), () -> "leaks a class name: " + message);
        assertFalse(message.contains("java."), () -> "leaks a class name: " + message);
        assertFalse(message.contains("com.fasterxml"), () -> "leaks a class name: " + message);
        assertFalse(message.contains("RunAgentInput$") || message.contains("Message$"),
                () -> "leaks a class name: " + message);
    }

    // ------------------------------------------------------------------ tolerant input

    @Test
    void readsMinimalBody() {
        RunAgentInput in = read("""
                {"threadId":"t1","runId":"r1","messages":[]}""");
        assertEquals("t1", in.threadId());
        assertEquals("r1", in.runId());
        assertEquals(List.of(), in.messages());
        assertNull(in.state(), "state absent");
        assertEquals(List.of(), in.tools(), "tools absent -> empty");
        assertEquals(List.of(), in.context(), "context absent -> empty");
        assertEquals(List.of(), in.resume(), "resume absent -> empty");
        assertNull(in.parentRunId());
        assertNull(in.forwardedProps());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.58", "1.0", "1.0.1-rc.1"})
    void readsTheProtocolVersionAndIgnoresUnknownTopLevelFields(String version) {
        RunAgentInput in = read("""
                {"protocolVersion":"%s","foo":{"bar":[1,2]},"threadId":"t1","runId":"r1","messages":[],
                 "tools":[],"context":[]}""".formatted(version));
        assertEquals("t1", in.threadId());
        assertEquals(version, in.protocolVersion());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"\"", "\"one\"", "\"1.0\\n\"", "\"1..0\""})
    void refusesAProtocolVersionThatIsNoVersion(String version) {
        InvalidRunInput e = assertThrows(InvalidRunInput.class, () -> read(body("[]", "\"protocolVersion\":" + version)));
        assertTrue(e.getMessage().contains("protocolVersion"), e.getMessage());
    }

    @Test
    void ignoresUnknownFieldsOnMessagesToolsAndToolCalls() {
        RunAgentInput in = read(body("""
                [{"id":"u1","role":"user","content":"hi","futureField":{"x":1},"createdAt":123},
                 {"id":"a1","role":"assistant","toolCalls":[
                    {"id":"c1","type":"function","function":{"name":"f","arguments":"{}","extra":1},"index":0}]}]""",
                """
                "tools":[{"name":"f","description":"d","parameters":{"type":"object"},"strict":true}]"""));
        assertEquals("hi", ((Message.User) in.messages().get(0)).content().text());
        assertEquals("f", ((Message.Assistant) in.messages().get(1)).toolCalls().get(0).function().name());
        assertEquals("f", in.tools().get(0).name());
    }

    @Test
    void treatsNullStateAsAbsent() {
        assertNull(read(body("[]", "\"state\":null")).state());
    }

    @Test
    void keepsNestedNullsInState() {
        RunAgentInput in = read(body("[]", """
                "state":{"a":null,"b":[null,1],"c":{"d":null}}"""));
        assertEquals(json("""
                {"a":null,"b":[null,1],"c":{"d":null}}"""), in.state());
        assertTrue(in.state().get("a").isNull());
        assertTrue(in.state().has("a"), "null-valued key is kept, not dropped");
    }

    @Test
    void readsToolsAndContext() {
        RunAgentInput in = read(body("[]", """
                "tools":[
                  {"name":"get_weather","description":"Get the weather",
                   "parameters":{"type":"object","properties":{"city":{"type":"string"}}}},
                  {"name":"no_params","description":"takes nothing"},
                  {"name":"render","description":"a2ui","parameters":{"type":"object"},
                   "metadata":{"a2ui":{"schema":{"k":null}}}}],
                "context":[{"description":"Name of the user","value":"Bob"}]"""));
        assertEquals(3, in.tools().size());
        assertEquals(json("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}"),
                in.tools().get(0).parameters());
        assertEquals("Get the weather", in.tools().get(0).description());
        assertNull(in.tools().get(1).parameters(), "tool without parameters");
        assertEquals(json("{\"a2ui\":{\"schema\":{\"k\":null}}}"), in.tools().get(2).metadata());
        assertEquals(List.of(new Context("Name of the user", "Bob")), in.context());
    }

    @Test
    void readsAllSevenMessageRoles() {
        RunAgentInput in = readMessages("""
                [{"id":"d1","role":"developer","content":"Be terse","name":"dev"},
                 {"id":"s1","role":"system","content":"You are helpful"},
                 {"id":"u1","role":"user","content":"Weather in Paris?","name":"alice"},
                 {"id":"a1","role":"assistant","content":"Checking",
                  "toolCalls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Paris\\"}"}}]},
                 {"id":"t1","role":"tool","content":"21C","toolCallId":"c1","error":"partial"},
                 {"id":"ac1","role":"activity","activityType":"a2ui-surface","content":{"title":"x","n":null}},
                 {"id":"r1","role":"reasoning","content":"thinking","encryptedValue":"ZW5j"}]""");
        List<Message> m = in.messages();
        assertEquals(7, m.size());

        Message.Developer dev = assertInstanceOf(Message.Developer.class, m.get(0));
        assertEquals("Be terse", dev.content());
        assertEquals("dev", dev.name());
        assertEquals("developer", dev.role());

        Message.System sys = assertInstanceOf(Message.System.class, m.get(1));
        assertEquals("You are helpful", sys.content());

        Message.User user = assertInstanceOf(Message.User.class, m.get(2));
        assertInstanceOf(MessageContent.Text.class, user.content());
        assertEquals("Weather in Paris?", user.content().text());
        assertEquals("alice", user.name());

        Message.Assistant assistant = assertInstanceOf(Message.Assistant.class, m.get(3));
        assertEquals("Checking", assistant.content());
        ToolCall call = assistant.toolCalls().get(0);
        assertEquals("c1", call.id());
        assertEquals("function", call.type());
        assertEquals("get_weather", call.function().name());
        assertEquals("{\"city\":\"Paris\"}", call.function().arguments());

        Message.Tool tool = assertInstanceOf(Message.Tool.class, m.get(4));
        assertEquals(new MessageContent.Text("21C"), tool.content());
        assertEquals("c1", tool.toolCallId());
        assertEquals("partial", tool.error());

        Message.Activity activity = assertInstanceOf(Message.Activity.class, m.get(5));
        assertEquals("a2ui-surface", activity.activityType());
        assertEquals(json("{\"title\":\"x\",\"n\":null}"), activity.content());

        Message.Reasoning reasoning = assertInstanceOf(Message.Reasoning.class, m.get(6));
        assertEquals("thinking", reasoning.content());
        assertEquals("ZW5j", reasoning.encryptedValue());
    }

    @Test
    void readsAssistantMessageWithoutContent() {
        Message.Assistant a = (Message.Assistant) readMessages("""
                [{"id":"a1","role":"assistant","toolCalls":[{"id":"c1","type":"function",
                   "function":{"name":"f","arguments":""}}]}]""").messages().get(0);
        assertNull(a.content());
        assertEquals(1, a.toolCalls().size());
    }

    @Test
    void readsEncryptedValueAndMetadataOnMessagesAndToolCalls() {
        RunAgentInput in = readMessages("""
                [{"id":"u1","role":"user","content":"hi","encryptedValue":"ZW5jVQ==","metadata":{"k":1}},
                 {"id":"a1","role":"assistant","encryptedValue":"ZW5jQQ==","metadata":{"trace":"x"},
                  "toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"},
                                "encryptedValue":"ZW5jVA==","metadata":{"origin":"llm"}}]},
                 {"id":"t1","role":"tool","content":"ok","toolCallId":"c1","metadata":{"ms":12}}]""");
        Message.User u = (Message.User) in.messages().get(0);
        assertEquals("ZW5jVQ==", u.encryptedValue());
        assertEquals(json("{\"k\":1}"), u.metadata());
        Message.Assistant a = (Message.Assistant) in.messages().get(1);
        assertEquals("ZW5jQQ==", a.encryptedValue());
        assertEquals(json("{\"trace\":\"x\"}"), a.metadata());
        assertEquals("ZW5jVA==", a.toolCalls().get(0).encryptedValue());
        assertEquals(json("{\"origin\":\"llm\"}"), a.toolCalls().get(0).metadata());
        assertEquals(json("{\"ms\":12}"), ((Message.Tool) in.messages().get(2)).metadata());
    }

    @Test
    void readsMultimodalMessageContent() {
        Message.User user = (Message.User) readMessages("""
                [{"id":"u1","role":"user","content":[
                   {"type":"text","text":"Describe these"},
                   {"type":"image","source":{"type":"url","value":"https://example.com/cat.png"}},
                   {"type":"image","source":{"type":"data","value":"aGk=","mimeType":"image/png"}},
                   {"type":"audio","source":{"type":"data","value":"YXVk","mimeType":"audio/wav"},"metadata":{"lang":"en"}},
                   {"type":"video","source":{"type":"url","value":"https://example.com/v.mp4","mimeType":"video/mp4"}},
                   {"type":"document","source":{"type":"url","value":"https://example.com/d.pdf"}},
                   {"type":"binary","mimeType":"image/png","url":"https://example.com/legacy.png"},
                   {"type":"text","text":"please"}]}]""").messages().get(0);
        MessageContent.Parts parts = assertInstanceOf(MessageContent.Parts.class, user.content());
        List<InputContent> p = parts.parts();
        assertEquals(8, p.size());

        assertEquals("Describe these", assertInstanceOf(InputContent.TextPart.class, p.get(0)).text());

        InputContent.MediaPart imageUrl = assertInstanceOf(InputContent.MediaPart.class, p.get(1));
        assertEquals("image", imageUrl.type());
        assertEquals(new InputContent.Source("url", "https://example.com/cat.png", null), imageUrl.source());

        InputContent.MediaPart imageData = assertInstanceOf(InputContent.MediaPart.class, p.get(2));
        assertEquals("image", imageData.type());
        assertEquals(new InputContent.Source("data", "aGk=", "image/png"), imageData.source());

        InputContent.MediaPart audio = assertInstanceOf(InputContent.MediaPart.class, p.get(3));
        assertEquals("audio", audio.type());
        assertEquals("audio/wav", audio.source().mimeType());
        assertEquals(json("{\"lang\":\"en\"}"), audio.metadata());

        InputContent.MediaPart video = assertInstanceOf(InputContent.MediaPart.class, p.get(4));
        assertEquals("video", video.type());
        assertEquals("https://example.com/v.mp4", video.source().value());
        assertEquals("video/mp4", video.source().mimeType());

        InputContent.MediaPart document = assertInstanceOf(InputContent.MediaPart.class, p.get(5));
        assertEquals("document", document.type());
        assertEquals("url", document.source().type());

        InputContent.BinaryPart legacy = assertInstanceOf(InputContent.BinaryPart.class, p.get(6));
        assertEquals("image/png", legacy.mimeType());
        assertEquals("https://example.com/legacy.png", legacy.url());
        assertNull(legacy.data());

        assertEquals("please", ((InputContent.TextPart) p.get(7)).text());
    }

    @Test
    void readsAToolMessageOfContentPartsAndWritesItBackAsSent() {
        String toolMessage = """
                {"id":"t1","role":"tool","toolCallId":"c1","content":[
                  {"type":"text","text":"Here is the chart","id":"p1","metadata":{"source":"plot"}},
                  {"type":"image","id":"p2","source":{"type":"data","value":"aGk=","mimeType":"image/png"}},
                  {"type":"audio","source":{"type":"url","value":"https://example.com/a.mp3"}},
                  {"type":"video","source":{"type":"url","value":"https://example.com/v.mp4","mimeType":"video/mp4"}},
                  {"type":"document","source":{"type":"file","value":"file-abc","provider":"openai",
                                               "mimeType":"application/pdf"}}]}""";
        Message.Tool tool = (Message.Tool) readMessages("[" + toolMessage + "]").messages().get(0);

        MessageContent.Parts parts = assertInstanceOf(MessageContent.Parts.class, tool.content());
        assertEquals("Here is the chart", parts.text());
        assertEquals(new InputContent.Source("file", "file-abc", "application/pdf", "openai"),
                ((InputContent.MediaPart) parts.parts().get(4)).source());
        assertEquals(json(toolMessage), json(AgUiJson.write(tool)), "stored and returned as sent");
    }

    @Test
    void aToolMessageWhoseContentIsNeitherAStringNorPartsIsRejectedNamingTheField() {
        assertRejected(body("[{\"id\":\"t1\",\"role\":\"tool\",\"toolCallId\":\"c1\",\"content\":42}]", ""), false,
                "messages[0].content", "a string or an array of content parts");
    }

    @Test
    void subagentAttributionOnMessagesIsTolerated() {
        RunAgentInput in = readMessages("""
                [{"id":"u1","role":"user","content":"hi","subagentRunId":"sub-1"},
                 {"id":"a1","role":"assistant","subagentRunId":"sub-1","toolCalls":[
                    {"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},
                 {"id":"t1","role":"tool","toolCallId":"c1","content":"ok","subagentRunId":"sub-1"},
                 {"id":"r1","role":"reasoning","content":"hmm","subagentRunId":"sub-1"},
                 {"id":"x1","role":"activity","activityType":"progress","content":{},"subagentRunId":"sub-1"},
                 {"id":"s1","role":"system","content":"be brief"},
                 {"id":"d1","role":"developer","content":"note"}]""");
        assertEquals(List.of("u1", "a1", "t1", "r1", "x1", "s1", "d1"), in.messages().stream().map(Message::id).toList());
    }

    @Test
    void partsTextJoinsOnlyTheTextParts() {
        MessageContent.Parts parts = new MessageContent.Parts(List.of(
                new InputContent.TextPart("first"),
                new InputContent.MediaPart("image", new InputContent.Source("url", "https://x/y.png", null), null),
                new InputContent.TextPart("second")));
        assertEquals("first\nsecond", parts.text());
        assertEquals("", new MessageContent.Parts(List.of(
                new InputContent.BinaryPart("image/png", "f1", null, null, null))).text());
        assertEquals("plain", new MessageContent.Text("plain").text());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":null,\"b\":[1]}", "[1,\"x\",null]", "\"str\"", "42", "true", "{}"})
    void acceptsAnyJsonAsForwardedProps(String forwardedProps) {
        RunAgentInput in = read(body("[]", "\"forwardedProps\":" + forwardedProps));
        assertEquals(json(forwardedProps), in.forwardedProps());
    }

    @Test
    void readsResumeEntriesAndParentRunId() {
        RunAgentInput in = read(body("[]", """
                "parentRunId":"r0",
                "resume":[{"interruptId":"int-1","status":"resolved","payload":{"approved":true,"note":null},
                           "metadata":{"by":"alice"}},
                          {"interruptId":"int-2","status":"cancelled"}]"""));
        assertEquals("r0", in.parentRunId());
        assertEquals(List.of(
                new ResumeEntry("int-1", "resolved", json("{\"approved\":true,\"note\":null}"), json("{\"by\":\"alice\"}")),
                new ResumeEntry("int-2", "cancelled", null, null)), in.resume());
    }

    @Test
    void toolCallWithoutTypeIsAFunctionCall() {
        Message.Assistant a = (Message.Assistant) readMessages("""
                [{"id":"a1","role":"assistant","toolCalls":[{"id":"c1","function":{"name":"f","arguments":"{}"}}]}]""")
                .messages().get(0);
        assertEquals("function", a.toolCalls().get(0).type());
    }

    // ------------------------------------------------------------------ malformed JSON

    @ParameterizedTest
    @ValueSource(strings = {"{bad", "{\"threadId\":\"t\"", "{} x", "{\"threadId\":\"t\",}"})
    void rejectsMalformedJson(String body) {
        assertRejected(body, true);
    }

    @Test
    void rejectsEmptyBodyAsMalformedJson() {
        assertRejected("", true);
    }

    /** A syntax error is a syntax error wherever it occurs, not "JSON of the wrong shape". */
    @ParameterizedTest
    @ValueSource(strings = {
        "{\"threadId\":\"t1\",\"runId\":\"r1\",\"messages\":[{\"id\":\"m1\" \"role\":\"user\",\"content\":\"hi\"}]}",
        "{\"threadId\":\"t1\",\"runId\":\"r1\",\"messages\":[{\"id\":\"m1\"",
        "{\"threadId\":\"t1\",\"runId\":\"r1\",\"messages\":[],\"state\":{\"a\" 1}}",
        "{\"threadId\":\"t1\",\"runId\":\"r1\",\"messages\":[],\"tools\":[{\"name\":\"f\",}]}"})
    void rejectsMalformedJsonNestedInsideTheBody(String body) {
        assertRejected(body, true);
    }

    @Test
    void rejectsSecondJsonDocumentAfterTheBody() {
        // `{...}{...}` is not one JSON text (JSON.parse rejects it)
        assertRejected(body("[]", "") + " {}", true);
    }

    // ------------------------------------------------------------------ wrong shapes

    @Test
    void rejectsMissingThreadId() {
        assertRejected("""
                {"runId":"r1","messages":[]}""", false, "threadId");
    }

    @Test
    void rejectsEmptyThreadId() {
        assertRejected("""
                {"threadId":"","runId":"r1","messages":[]}""", false, "threadId");
    }

    @Test
    void rejectsNumericThreadId() {
        assertRejected("""
                {"threadId":123,"runId":"r1","messages":[]}""", false, "threadId");
    }

    @Test
    void rejectsBooleanRunId() {
        assertRejected("""
                {"threadId":"t1","runId":true,"messages":[]}""", false, "runId");
    }

    @Test
    void rejectsObjectThreadId() {
        assertRejected("""
                {"threadId":{"id":"t1"},"runId":"r1","messages":[]}""", false, "threadId");
    }

    @Test
    void rejectsMissingRunId() {
        assertRejected("""
                {"threadId":"t1","messages":[]}""", false, "runId");
    }

    @Test
    void rejectsMissingMessages() {
        assertRejected("""
                {"threadId":"t1","runId":"r1"}""", false, "messages");
    }

    @Test
    void rejectsMessagesAsString() {
        assertRejected("""
                {"threadId":"t1","runId":"r1","messages":"hello"}""", false, "messages");
    }

    @Test
    void rejectsMessageWithoutId() {
        assertRejected(body("""
                [{"role":"user","content":"hi"}]""", ""), false, "messages[0]", "id");
    }

    @Test
    void rejectsDuplicateMessageIds() {
        assertRejected(body("""
                [{"id":"m1","role":"user","content":"hi"},{"id":"m1","role":"assistant","content":"yo"}]""", ""),
                false, "messages[1]", "m1");
    }

    @Test
    void rejectsUnknownRole() {
        assertRejected(body("""
                [{"id":"m1","role":"user","content":"hi"},{"id":"m2","role":"wizard","content":"x"}]""", ""),
                false, "messages[1]", "role", "wizard");
    }

    @Test
    void rejectsMessageWithoutRole() {
        assertRejected(body("""
                [{"id":"m1","content":"hi"}]""", ""), false, "messages[0]", "role");
    }

    @Test
    void rejectsToolMessageWithoutToolCallId() {
        assertRejected(body("""
                [{"id":"t1","role":"tool","content":"21C"}]""", ""), false, "messages[0]", "toolCallId");
    }

    @Test
    void rejectsToolCallWithoutId() {
        assertRejected(body("""
                [{"id":"a1","role":"assistant",
                  "toolCalls":[{"type":"function","function":{"name":"f","arguments":"{}"}}]}]""", ""),
                false, "messages[0].toolCalls[0]", "id");
    }

    @Test
    void rejectsToolCallWithoutFunctionName() {
        assertRejected(body("""
                [{"id":"a1","role":"assistant",
                  "toolCalls":[{"id":"c1","type":"function","function":{"arguments":"{}"}}]}]""", ""),
                false, "messages[0].toolCalls[0]", "name");
    }

    @Test
    void rejectsToolWithoutName() {
        assertRejected(body("[]", """
                "tools":[{"name":"ok","description":"d"},{"description":"nameless"}]"""),
                false, "tools[1]", "name");
    }

    @Test
    void rejectsToolParametersThatAreNotAnObject() {
        assertRejected(body("[]", """
                "tools":[{"name":"f","description":"d","parameters":"object"}]"""),
                false, "tools[0]", "parameters");
    }

    @Test
    void rejectsResumeEntryWithBadStatus() {
        assertRejected(body("[]", """
                "resume":[{"interruptId":"int-1","status":"approved"}]"""),
                false, "resume[0]", "status");
    }

    @Test
    void rejectsNullBody() {
        assertRejected("null", false);
    }

    @Test
    void rejectsArrayBody() {
        assertRejected("[]", false);
    }

    @Test
    void rejectsStringBody() {
        assertRejected("\"x\"", false);
    }

    @Test
    void nullMetadataIsDroppedSoStoredMessagesGoBackToClientsCleanly() {
        RunAgentInput input = RunAgentInputReader.read("""
                {"threadId":"t","runId":"r","metadata":null,
                 "messages":[{"id":"u1","role":"user","metadata":null,"content":[
                     {"type":"image","source":{"type":"url","value":"https://x/y.png"},"metadata":null}]},
                   {"id":"a1","role":"assistant","metadata":null,"toolCalls":[
                     {"id":"c1","type":"function","function":{"name":"f","arguments":"{}"},"metadata":null}]}],
                 "tools":[{"name":"t1","description":"d","metadata":null}],
                 "state":{"kept":{"metadata":null}}}""".getBytes(StandardCharsets.UTF_8));

        String echoed = AgUiJson.write(new AgUiEvent.MessagesSnapshot(input.messages()));
        assertFalse(echoed.contains("null"), echoed);
        assertFalse(AgUiJson.write(input.tools()).contains("null"));
        assertEquals("{\"kept\":{\"metadata\":null}}", AgUiJson.write(input.state()), "state is free JSON: untouched");
    }

    // ------------------------------------------------------------------ parser limits and strict decoding

    /** Over Jackson's read limits: a 400 naming the limit, not an exception without a location (it hung the route). */
    @ParameterizedTest
    @ValueSource(strings = {"nesting", "number", "name"})
    void jsonOverTheParserLimitsIsMalformedJsonNamingTheLimit(String limit) {
        String body = switch (limit) {
            case "nesting" -> body("[]", "\"state\":{\"a\":" + "[".repeat(1001) + "]".repeat(1001) + "}");
            case "number" -> body("[]", "\"state\":{\"a\":" + "9".repeat(1001) + "}");
            default -> body("[]", "\"state\":{\"" + "k".repeat(50_001) + "\":1}");
        };
        assertRejected(body, true, "limit", "exceeds");
    }

    @Test
    void overlongUtf8IsMalformedNotASlash() {
        byte[] body = bytes("{\"threadId\":\"t", new byte[] {(byte) 0xc0, (byte) 0xaf}, "x\",\"runId\":\"r\",\"messages\":[]}");
        InvalidRunInput e = assertThrows(InvalidRunInput.class, () -> RunAgentInputReader.read(body));
        assertTrue(e.malformedJson(), e.getMessage());
        assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"eda080", "f4908080", "e282", "ff"})
    void encodedSurrogatesOutOfRangeTruncatedAndInvalidBytesAreMalformed(String hex) {
        byte[] bad = java.util.HexFormat.of().parseHex(hex);
        byte[] body = bytes("{\"threadId\":\"t1\",\"runId\":\"r1\",\"messages\":[],\"state\":{\"a\":\"", bad, "\"}}");
        InvalidRunInput e = assertThrows(InvalidRunInput.class, () -> RunAgentInputReader.read(body));
        assertTrue(e.malformedJson(), e.getMessage());
    }

    @Test
    void aLeadingByteOrderMarkIsIgnored() {
        byte[] body = bytes("", new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}, body("[]", ""));
        assertEquals("t1", RunAgentInputReader.read(body).threadId());
    }

    @Test
    void fourByteUtf8IsRead() {
        assertEquals("\uD83D\uDE00", read(body("[]", "\"state\":{\"a\":\"😀\"}")).state().get("a").asText());
    }

    // ------------------------------------------------------------------ values the stores could not keep

    @ParameterizedTest
    @ValueSource(strings = {"\"\\ud800\"", "\"a\\udc00b\"", "\"\\ude00\\ud83d\""})
    void loneSurrogatesInStringsAreRefusedNamingThePath(String value) {
        assertRejected(body("[]", "\"state\":{\"notes\":[\"ok\"," + value + "]}"), false, "state.notes[1]",
                "lone surrogate");
    }

    @Test
    void aLoneSurrogateInAMemberNameIsRefused() {
        assertRejected(body("[]", "\"state\":{\"a\":{\"x\\ud800\":1}}"), false, "state.a.x", "member name");
    }

    @Test
    void loneSurrogatesInMessageContentAreRefused() {
        assertRejected(body("""
                [{"id":"m1","role":"user","content":"hi \\udfff"}]""", ""), false, "messages[0].content");
    }

    @Test
    void surrogatePairsAsEscapesAreKept() {
        assertEquals("\uD83D\uDE00", read(body("[]", "\"state\":{\"a\":\"\\ud83d\\ude00\"}")).state().get("a").asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e400", "-1e400", "1e-400", "-2.5e-324", "3.14159265358979323846",
        "0.10000000000000000001", "1e99999999999", "1.5e-320000", "9007199254740993.0"})
    void numbersADoubleCannotReproduceAreRefusedNamingThePath(String number) {
        assertRejected(body("[]", "\"state\":{\"n\":[0," + number + "]}"), false, "state.n[1]", "number");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.1", "0.30000000000000004", "1e2", "1E+2", "-0.0", "0e99999999999", "5e-324",
        "4.9406564584124654e-324", "2.2250738585072014e-308", "1.7976931348623157e308", "123456.789e-3",
        "0.1000000000000000055511151231257827021181583404541015625", "2.82879384806159008E17"})
    void numbersADoubleReproducesAreKeptAsThatDouble(String number) {
        JsonNode kept = read(body("[]", "\"state\":{\"n\":" + number + "}")).state().get("n");
        assertTrue(kept.isDouble(), kept.getNodeType().toString());
        assertEquals(Double.doubleToRawLongBits(Double.parseDouble(number)), Double.doubleToRawLongBits(kept.doubleValue()),
                number);
        assertEquals(kept, AgUiJson.tree(AgUiJson.write(kept)), "the stores' JSON round trip keeps it");
    }

    @Test
    void integersAreKeptExactlyAtAnySize() {
        String big = "123456789012345678901234567890123456789";
        JsonNode state = read(body("[]", "\"state\":{\"big\":" + big + ",\"long\":9007199254740993}")).state();
        assertEquals(new java.math.BigInteger(big), state.get("big").bigIntegerValue());
        assertEquals(9007199254740993L, state.get("long").longValue());
        assertEquals("{\"big\":" + big + ",\"long\":9007199254740993}", AgUiJson.write(state));
    }

    @ParameterizedTest
    @ValueSource(strings = {"NaN", "Infinity", "-Infinity", "+1", "01", ".5", "1.", "0x10"})
    void nonJsonNumberLiteralsAreMalformed(String literal) {
        assertRejected(body("[]", "\"state\":{\"n\":" + literal + "}"), true);
    }

    @Test
    void duplicateMemberNamesAreMalformedAtAnyDepth() {
        assertRejected(body("[]", "\"state\":{\"a\":{\"x\":1,\"x\":2}}"), true, "x");
        assertRejected("{\"threadId\":\"t1\",\"threadId\":\"t2\",\"runId\":\"r1\",\"messages\":[]}", true, "threadId");
    }

    @Test
    void trailingContentAfterTheValueIsMalformed() {
        assertRejected(body("[]", "") + "]", true);
        assertRejected(body("[]", "") + "x", true);
        assertRejected("\"x\" \"y\"", true);
    }

    @Test
    void whitespaceOnlyIsAnEmptyBody() {
        assertRejected(" \n\t ", true, "empty");
    }

    // ------------------------------------------------------------------ id rules

    @ParameterizedTest
    @ValueSource(strings = {"t\n13:00:00.000 ERROR forged", "t\r", "\u001b[31mred", "t\u0000", "t\u007f", "t\u0085",
        "t\u2028x", "t\tx"})
    void idsWithControlCharactersAreRefusedNamingTheField(String threadId) {
        String json = "{\"threadId\":" + quote(threadId) + ",\"runId\":\"r1\",\"messages\":[]}";
        InvalidRunInput e = assertRejected(json, false, "threadId", "control character", "U+");
        assertEquals(-1, ControlCharacters.indexOfControl(e.getMessage()), "the message itself is printable");
    }

    @Test
    void everyIdAndToolNameFollowsTheRules() {
        String bad = quote("x\ny");
        assertRejected("{\"threadId\":\"t\",\"runId\":" + bad + ",\"messages\":[]}", false, "runId");
        assertRejected(body("[]", "\"parentRunId\":" + bad), false, "parentRunId");
        assertRejected(body("[{\"id\":" + bad + ",\"role\":\"user\",\"content\":\"hi\"}]", ""), false, "messages[0].id");
        assertRejected(body("[{\"id\":\"t1\",\"role\":\"tool\",\"content\":\"x\",\"toolCallId\":" + bad + "}]", ""), false,
                "messages[0].toolCallId");
        assertRejected(body("[{\"id\":\"a\",\"role\":\"assistant\",\"toolCalls\":[{\"id\":" + bad
                + ",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}]", ""), false, "messages[0].toolCalls[0].id");
        assertRejected(body("[{\"id\":\"a\",\"role\":\"assistant\",\"toolCalls\":[{\"id\":\"c\",\"function\":{\"name\":"
                + bad + ",\"arguments\":\"{}\"}}]}]", ""), false, "messages[0].toolCalls[0].function.name");
        assertRejected(body("[]", "\"tools\":[{\"name\":" + bad + "}]"), false, "tools[0].name");
        assertRejected(body("[]", "\"resume\":[{\"interruptId\":" + bad + ",\"status\":\"resolved\"}]"), false,
                "resume[0].interruptId");
    }

    @Test
    void idsAreAtMost256Characters() {
        String longest = "t".repeat(IdRules.MAX_LENGTH);
        assertEquals(longest, read("{\"threadId\":\"" + longest + "\",\"runId\":\"r\",\"messages\":[]}").threadId());
        String astral = "😀".repeat(IdRules.MAX_LENGTH);
        assertEquals(astral, read("{\"threadId\":\"" + astral + "\",\"runId\":\"r\",\"messages\":[]}").threadId(),
                "characters, not UTF-16 units");
        assertRejected("{\"threadId\":\"" + longest + "x\",\"runId\":\"r\",\"messages\":[]}", false, "threadId", "256");
    }

    @Test
    void idsMayHoldAnyPrintableText() {
        String id = "thread: ünïcödé / 東京 / emoji 😀 / quotes \" and \\ backslash";
        assertEquals(id, read("{\"threadId\":" + quote(id) + ",\"runId\":\"r\",\"messages\":[]}").threadId());
    }

    // ------------------------------------------------------------------ context

    @Test
    void aNullContextEntryIsInvalidRunInput() {
        assertRejected(body("[]", "\"context\":[null]"), false, "context[0]");
    }

    @Test
    void aContextEntryNeedsDescriptionAndValue() {
        assertRejected(body("[]", "\"context\":[{\"description\":\"d\"}]"), false, "context[0].value");
        assertRejected(body("[]", "\"context\":[{\"value\":\"v\"}]"), false, "context[0].description");
    }

    private static byte[] bytes(String before, byte[] middle, String after) {
        byte[] head = before.getBytes(StandardCharsets.UTF_8);
        byte[] tail = after.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[head.length + middle.length + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(middle, 0, all, head.length, middle.length);
        System.arraycopy(tail, 0, all, head.length + middle.length, tail.length);
        return all;
    }

    private static String quote(String text) {
        try {
            return PLAIN.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
