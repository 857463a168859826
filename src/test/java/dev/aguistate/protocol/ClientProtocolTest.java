package dev.aguistate.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a client before AG-UI 1.0 is sent instead of the three 1.0 shapes its schemas refuse. */
@Execution(ExecutionMode.CONCURRENT)
class ClientProtocolTest {

    @ParameterizedTest
    @ValueSource(strings = {"1.0", "1.0.0", "1.2", "2.0", "10.1"})
    void aClientThatStatesOneZeroOrLaterSpeaksOneZero(String declared) {
        assertEquals(ClientProtocol.V1_0, ClientProtocol.of(declared));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "0.0.59", "0.9"})
    void aZeroVersionPredatesOneZero(String declared) {
        assertEquals(ClientProtocol.PRE_1_0, ClientProtocol.of(declared));
    }

    @Test
    void aClientThatStatesNoVersionPredatesOneZero() {
        assertEquals(ClientProtocol.PRE_1_0, ClientProtocol.of(null)); // 1.0's clients always state it
    }

    @Test
    void aCancelledRunEndsInRunErrorCancelledBeforeOneZeroKeepingItsCursorAndUsage() {
        AgUiEvent.RunFinished cancelled = new AgUiEvent.RunFinished("t", "r", null, RunOutcome.CANCELLED,
                List.of(new TokenUsage("openai", "gpt", 3, 4, 7, null, null)));
        JsonNode sent = json(ClientProtocol.PRE_1_0.adapt(SseFrames.frame("r:9", AgUiJson.writeBytes(cancelled))),
                "r:9");
        assertEquals("RUN_ERROR", sent.get("type").asText());
        assertEquals("cancelled", sent.get("code").asText());
        assertEquals("The run was stopped.", sent.get("message").asText());
        assertEquals(7, sent.at("/usage/0/totalTokens").asInt());
        assertEquals(4, sent.size(), sent.toString());
    }

    @Test
    void subagentEventsAreLeftOutBeforeOneZeroAndTheSubagentsOwnEventsGoOutAsMade() {
        for (AgUiEvent event : List.of(new AgUiEvent.SubagentStarted("sa1", "researcher", null, null, "c1", null),
                new AgUiEvent.SubagentFinished("sa1", AgUiJson.mapper().getNodeFactory().textNode("Facts")),
                new AgUiEvent.SubagentError("sa1", "It failed.", "tool_failed"))) {
            assertEquals(0, ClientProtocol.PRE_1_0.adapt(SseFrames.frame("r:3", AgUiJson.writeBytes(event))).length,
                    event.type().name());
            byte[] frame = SseFrames.frame("r:3", AgUiJson.writeBytes(event));
            assertSame(frame, ClientProtocol.V1_0.adapt(frame));
        }
        byte[] text = SseFrames.frame("r:4", AgUiJson.writeBytes(
                new AgUiEvent.TextMessageContent("m1", "Facts").attributedTo("sa1")));
        assertSame(text, ClientProtocol.PRE_1_0.adapt(text), "its schemas drop the field they do not know");
    }

    @Test
    void aSuccessOutcomeLosesItsPendingToolCallIdsBeforeOneZero() {
        AgUiEvent.RunFinished pending = new AgUiEvent.RunFinished("t", "r", null,
                new RunOutcome.Success(List.of("call_1")), null);
        JsonNode sent = json(ClientProtocol.PRE_1_0.adapt(SseFrames.frame(pending)), null);
        assertEquals("RUN_FINISHED", sent.get("type").asText());
        assertEquals(AgUiJson.mapper().createObjectNode().put("type", "success"), sent.get("outcome"));
        assertEquals("r", sent.get("runId").asText());
    }

    @Test
    void aToolMessageOfContentPartsBecomesTheTextOfItsTextPartsBeforeOneZero() throws Exception {
        String snapshot = """
                {"type":"MESSAGES_SNAPSHOT","messages":[
                  {"id":"u","role":"user","content":[{"type":"text","text":"look"}]},
                  {"id":"t","role":"tool","toolCallId":"c","content":[{"type":"text","text":"done"},
                    {"type":"image","source":{"type":"data","value":"iVBO","mimeType":"image/png"}},
                    {"type":"text","text":"twice"}]}]}""";
        byte[] frame = SseFrames.frame("r:2", AgUiJson.mapper().writeValueAsBytes(AgUiJson.mapper().readTree(snapshot)));
        JsonNode sent = json(ClientProtocol.PRE_1_0.adapt(frame), "r:2");
        assertEquals("done\ntwice", sent.at("/messages/1/content").asText());
        assertEquals(AgUiJson.mapper().readTree(snapshot).at("/messages/0"), sent.at("/messages/0"),
                "user messages had content parts before 1.0 too");
    }

    @Test
    void aToolResultOfContentPartsBecomesTheTextOfItsTextPartsBeforeOneZero() throws Exception {
        String result = """
                {"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","role":"tool","content":[
                  {"type":"text","text":"Here is the chart:"},
                  {"type":"image","source":{"type":"data","value":"iVBO","mimeType":"image/png"}}]}""";
        byte[] frame = SseFrames.frame("r:5", AgUiJson.mapper().writeValueAsBytes(AgUiJson.mapper().readTree(result)));
        JsonNode sent = json(ClientProtocol.PRE_1_0.adapt(frame), "r:5");
        assertEquals("Here is the chart:", sent.path("content").asText());
        assertEquals("c", sent.path("toolCallId").asText());
        assertSame(frame, ClientProtocol.V1_0.adapt(frame));
        byte[] text = SseFrames.frame("r:6", AgUiJson.writeBytes(new AgUiEvent.ToolCallResult("m", "c", "plain")));
        assertSame(text, ClientProtocol.PRE_1_0.adapt(text), "a text result goes out as made");
    }

    @Test
    void otherFramesAndEveryFrameToAOneZeroClientGoOutAsMade() {
        byte[] text = SseFrames.frame("r:3", AgUiJson.writeBytes(new AgUiEvent.TextMessageContent("m", "hi")));
        assertSame(text, ClientProtocol.PRE_1_0.adapt(text));
        byte[] cancelled = SseFrames.frame("r:4", AgUiJson.writeBytes(
                new AgUiEvent.RunFinished("t", "r", null, RunOutcome.CANCELLED, null)));
        assertSame(cancelled, ClientProtocol.V1_0.adapt(cancelled));
        byte[] keepAlive = SseFrames.keepAlive();
        assertArrayEquals(SseFrames.keepAlive(), ClientProtocol.PRE_1_0.adapt(keepAlive));
    }

    /** Most runs end so: their last two frames reach a client before 1.0 as made, the very arrays. */
    @Test
    void aSuccessWithoutPendingCallsAndASnapshotWithoutToolPartsGoOutAsMadeBeforeOneZero() throws Exception {
        byte[] finished = SseFrames.frame("r:7", AgUiJson.writeBytes(new AgUiEvent.RunFinished("t", "r", null,
                new RunOutcome.Success(List.of()), List.of(new TokenUsage("openai", "gpt", 3, 4, 7, null, null)))));
        assertSame(finished, ClientProtocol.PRE_1_0.adapt(finished));
        String snapshot = """
                {"type":"MESSAGES_SNAPSHOT","messages":[
                  {"id":"u","role":"user","content":[{"type":"text","text":"the role \\"tool\\" is cancelled"}]},
                  {"id":"a","role":"assistant","content":"done","toolCalls":[{"id":"c","type":"function",
                    "function":{"name":"f","arguments":"{}"}}]},
                  {"id":"t","role":"tool","toolCallId":"c","content":"plain"}]}""";
        byte[] frame = SseFrames.frame("r:8", AgUiJson.mapper().writeValueAsBytes(AgUiJson.mapper().readTree(snapshot)));
        assertSame(frame, ClientProtocol.PRE_1_0.adapt(frame), "no tool message has content parts");
    }

    /** The event of a frame, checking that its {@code id:} line is {@code id} (none when null). */
    private static JsonNode json(byte[] frame, String id) {
        String text = new String(frame, StandardCharsets.UTF_8);
        String prefix = id == null ? "data: " : "id: " + id + "\ndata: ";
        assertEquals(prefix, text.substring(0, prefix.length()), text);
        assertEquals("\n\n", text.substring(text.length() - 2));
        try {
            return AgUiJson.mapper().readTree(text.substring(prefix.length(), text.length() - 2));
        } catch (Exception e) {
            throw new AssertionError(text, e);
        }
    }
}
