package dev.aguistate.run;

import dev.aguistate.run.request.RoundKind;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.llm.FinishReason;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.ModelFailure;
import dev.aguistate.llm.ModelUsage;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.protocol.TokenUsage;
import dev.aguistate.state.DeltaPacing;
import dev.aguistate.testing.ClientStateReplay;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class StreamTranslationTest {

    private static final DeltaPacing NO_COALESCING = DeltaPacing.UNPACED;
    private static final DeltaPacing AN_HOUR = new DeltaPacing(Duration.ofHours(1), 2048, Duration.ofHours(1), 4);

    private final AgentDefinition writer = RunFixtures.writer().build();
    private final JsonNode clientState = AgUiJson.tree("{\"document\":\"old\",\"notes\":[]}");
    private final ClientMirror client = new ClientMirror(clientState);
    private final TerminalEvents ending = new TerminalEvents("t", "r", "test");

    private StreamTranslation round(RoundKind kind, DeltaPacing deltaInterval) {
        return StreamTranslation.start(kind, writer, clientState, client, ending, deltaInterval);
    }

    private static List<AgUiEvent> feed(StreamTranslation translation, ModelEvent... events) {
        List<AgUiEvent> out = new ArrayList<>();
        for (ModelEvent event : events) {
            translation.translate(event, out);
        }
        return out;
    }

    @Test
    void textStreamsAsOneAssistantMessageClosedWhenTheRoundCompletes() {
        StreamTranslation translation = round(RoundKind.TOOLS, NO_COALESCING);
        List<AgUiEvent> events = feed(translation, new ModelEvent.TextDelta("Hel"), new ModelEvent.TextDelta("lo"),
                new ModelEvent.Completed(null, FinishReason.STOP));

        assertEquals(List.of("TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"),
                RunFixtures.types(events));
        assertEquals("Hello", translation.round().text.toString());
        for (JsonNode event : RunFixtures.json(events)) {
            assertEquals(translation.round().messageId, event.get("messageId").asText());
        }
    }

    @Test
    void reasoningIsClosedBeforeTheTextStarts() {
        List<AgUiEvent> events = feed(round(RoundKind.TOOLS, NO_COALESCING), new ModelEvent.ReasoningDelta("hmm"),
                new ModelEvent.TextDelta("Yes"), new ModelEvent.Completed(null, FinishReason.STOP));

        assertEquals(List.of("REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT",
                "REASONING_MESSAGE_END", "REASONING_END", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END"), RunFixtures.types(events));
    }

    @Test
    void aPredictedToolCallStreamsDeltasThatApplyToWhatTheClientHolds() {
        StreamTranslation translation = round(RoundKind.TOOLS, NO_COALESCING);
        List<AgUiEvent> events = feed(translation,
                new ModelEvent.ToolCallDelta(0, "call_1", "write_document", "{\"docu"),
                new ModelEvent.ToolCallDelta(0, null, null, "ment\":\"A new "),
                new ModelEvent.ToolCallDelta(0, null, null, "text\"}"),
                new ModelEvent.ToolCallCompleted(0, "call_1", "write_document", "{\"document\":\"A new text\"}"),
                new ModelEvent.Completed(null, FinishReason.STOP));

        List<String> types = RunFixtures.types(events);
        assertEquals("CUSTOM", types.get(0));
        assertEquals("TOOL_CALL_START", types.get(1));
        assertEquals(1, Collections.frequency(types, "TOOL_CALL_END"));
        assertTrue(types.lastIndexOf("STATE_DELTA") < types.indexOf("TOOL_CALL_END"), types.toString());
        ClientStateReplay replay = ClientStateReplay.of(clientState, RunFixtures.json(events));
        assertEquals(List.of("A new ", "A new text"),
                replay.afterEachDelta().stream().map(s -> s.get("document").asText()).toList());
        assertEquals(replay.held(), client.holds());
        assertEquals("{\"document\":\"A new text\"}", translation.round().toolCalls.get(0).arguments.toString());
    }

    @Test
    void predictStateIsAnnouncedOncePerRunWithCopilotKitsKeys() {
        List<AgUiEvent> first = feed(round(RoundKind.TOOLS, NO_COALESCING),
                new ModelEvent.ToolCallDelta(0, "call_1", "write_document", "{}"), new ModelEvent.Completed(null, FinishReason.STOP));
        List<AgUiEvent> second = feed(round(RoundKind.TOOLS, NO_COALESCING),
                new ModelEvent.ToolCallDelta(0, "call_2", "write_document", "{}"), new ModelEvent.Completed(null, FinishReason.STOP));

        AgUiEvent.Custom notice = (AgUiEvent.Custom) first.get(0);
        assertEquals("PredictState", notice.name());
        assertEquals(AgUiJson.tree(
                "[{\"state_key\":\"document\",\"tool\":\"write_document\",\"tool_argument\":\"document\"}]"),
                notice.value());
        assertFalse(RunFixtures.types(second).contains("CUSTOM"));
    }

    @Test
    void deltasAreCoalescedToOnePerIntervalAndThePendingOneIsFlushedBeforeTheCallEnds() {
        List<ModelEvent> stream = new ArrayList<>(List.of(
                new ModelEvent.ToolCallDelta(0, "call_1", "write_document", "{\"document\":\"")));
        for (int i = 0; i < 20; i++) {
            stream.add(new ModelEvent.ToolCallDelta(0, null, null, "word" + i + " "));
        }
        stream.add(new ModelEvent.ToolCallDelta(0, null, null, "\"}"));
        stream.add(new ModelEvent.ToolCallCompleted(0, "call_1", "write_document", null));

        List<AgUiEvent> events = feed(round(RoundKind.TOOLS, AN_HOUR), stream.toArray(ModelEvent[]::new));

        List<String> types = RunFixtures.types(events);
        assertEquals(2, Collections.frequency(types, "STATE_DELTA"), types.toString());
        assertEquals(List.of("STATE_DELTA", "TOOL_CALL_END"), types.subList(types.size() - 2, types.size()));
        String document = ClientStateReplay.of(clientState, RunFixtures.json(events)).held().get("document").asText();
        assertTrue(document.startsWith("word0 ") && document.endsWith("word19 "), document);
    }

    @Test
    void argumentsTheStreamMissedAreSentWhenTheCallCompletes() {
        List<AgUiEvent> events = feed(round(RoundKind.TOOLS, NO_COALESCING),
                new ModelEvent.ToolCallDelta(0, "call_1", "add_note", "{\"notes\""),
                new ModelEvent.ToolCallCompleted(0, "call_1", "add_note", "{\"notes\":[\"milk\"]}"));

        String arguments = String.join("", events.stream().filter(e -> e instanceof AgUiEvent.ToolCallArgs)
                .map(e -> ((AgUiEvent.ToolCallArgs) e).delta()).toList());
        assertEquals("{\"notes\":[\"milk\"]}", arguments);
        assertEquals("TOOL_CALL_END", RunFixtures.types(events).get(events.size() - 1));
    }

    @Test
    void aStateOutputRoundStreamsItsJsonAsAPredictionOfEveryKeyNotAsText() {
        AgentDefinition twoPhase = RunFixtures.writer().twoPhaseState().build();
        StreamTranslation translation = StreamTranslation.start(RoundKind.STATE_OUTPUT, twoPhase, clientState, client,
                ending, NO_COALESCING);
        List<AgUiEvent> events = feed(translation, new ModelEvent.TextDelta("{\"document\":\"dr"),
                new ModelEvent.TextDelta("aft\",\"notes\":[\"a\"]}"), new ModelEvent.Completed(null, FinishReason.STOP));

        List<String> types = RunFixtures.types(events);
        assertFalse(types.contains("TEXT_MESSAGE_START") || types.contains("TEXT_MESSAGE_CONTENT"), types.toString());
        assertTrue(types.contains("STATE_DELTA"), types.toString());
        assertEquals(AgUiJson.tree("{\"document\":\"draft\",\"notes\":[\"a\"]}"),
                ClientStateReplay.of(clientState, RunFixtures.json(events)).held());
        assertEquals("{\"document\":\"draft\",\"notes\":[\"a\"]}", translation.round().text.toString());
    }

    @Test
    void anAnswerTheTokenLimitCutShortKeepsItsTextAndSaysSo() {
        StreamTranslation translation = round(RoundKind.TOOLS, NO_COALESCING);
        List<AgUiEvent> events = feed(translation, new ModelEvent.TextDelta("Once upon a"),
                new ModelEvent.Completed(null, FinishReason.LENGTH));

        assertEquals("Once upon a" + StreamTranslation.CUT_SHORT, translation.round().text.toString());
        assertEquals("TEXT_MESSAGE_END", RunFixtures.types(events).get(events.size() - 1));
    }

    @Test
    void aStateOutputTheTokenLimitCutShortFailsTheRunAsTruncated() {
        AgentDefinition twoPhase = RunFixtures.writer().twoPhaseState().build();
        StreamTranslation translation = StreamTranslation.start(RoundKind.STATE_OUTPUT, twoPhase, clientState, client,
                ending, NO_COALESCING);
        translation.translate(new ModelEvent.TextDelta("{\"document\":\"dr"), new ArrayList<>());

        ModelFailure failure = assertThrows(ModelFailure.class,
                () -> translation.translate(new ModelEvent.Completed(null, FinishReason.LENGTH), new ArrayList<>()));
        assertEquals("llm_output_truncated", failure.kind().code());
    }

    @Test
    void usageOfEveryRoundIsSummedForTheRunsTerminalEvent() {
        feed(round(RoundKind.TOOLS, NO_COALESCING), new ModelEvent.Completed(new ModelUsage("m", 10, 2, 12), FinishReason.STOP));
        feed(round(RoundKind.TOOLS, NO_COALESCING), new ModelEvent.Completed(new ModelUsage("m", 20, null, 23), FinishReason.STOP));

        List<TokenUsage> usage = ((AgUiEvent.RunFinished) ending.finished(RunOutcome.SUCCESS)).usage();
        assertEquals(List.of(new TokenUsage("test", "m", 30, 2, 35, null, null)), usage);
    }

    @Test
    void cachedAndReasoningTokensAreSummedOverTheRoundsThatReportThem() {
        feed(round(RoundKind.TOOLS, NO_COALESCING), new ModelEvent.Completed(new ModelUsage("m", 100, 30, 130, 80, 20),
                FinishReason.TOOL_CALLS));
        feed(round(RoundKind.TOOLS, NO_COALESCING), new ModelEvent.Completed(new ModelUsage("m", 150, 10, 160), FinishReason.STOP));
        feed(round(RoundKind.TOOLS, NO_COALESCING), new ModelEvent.Completed(new ModelUsage("m", 160, 12, 172, 150, 0),
                FinishReason.STOP));

        List<TokenUsage> usage = ((AgUiEvent.RunFinished) ending.finished(RunOutcome.SUCCESS)).usage();
        assertEquals(List.of(new TokenUsage("test", "m", 410, 52, 462, 20, 230)), usage,
                "reasoning 20 + 0 of 52 output tokens, cached 80 + 150 of 410 input tokens");
    }

    /** A model event the translation does not know must fail here, not vanish from the stream. */
    @Test
    void everyKindOfModelEventIsTranslated() throws Exception {
        for (Class<?> kind : ModelEvent.class.getPermittedSubclasses()) {
            StreamTranslation translation = round(RoundKind.TOOLS, NO_COALESCING);
            assertDoesNotThrow(() -> translation.translate((ModelEvent) placeholder(kind), new ArrayList<>()),
                    kind.getSimpleName());
        }
    }

    /** An instance of a record with neutral component values. */
    static Object placeholder(Class<?> record) throws Exception {
        RecordComponent[] components = record.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            Class<?> type = components[i].getType();
            types[i] = type;
            values[i] = type == int.class ? 0 : type == long.class ? 0L : type == boolean.class ? false
                    : type == String.class ? "x" : type == List.class ? List.of()
                    : type.isEnum() ? type.getEnumConstants()[0] : null;
        }
        return record.getDeclaredConstructor(types).newInstance(values);
    }
}
