package dev.aguistate.run;

import dev.aguistate.run.tracing.RunTracing;
import dev.aguistate.run.AgentRunner;
import dev.aguistate.run.RunFixtures;
import dev.aguistate.run.RunMetrics;
import dev.aguistate.run.StopSwitch;
import dev.aguistate.run.StubStreamingModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.llm.FinishReason;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.protocol.AgUiEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * With {@code agui.tracing.capture-content} on, the spans carry the prompt, the answer, and each tool's arguments and
 * result (the Quarkus-level {@code TracingTest} shows they are absent by default). A real OpenTelemetry SDK records
 * the spans; the LLM is stubbed at its port.
 */
@Execution(ExecutionMode.CONCURRENT)
class RunTraceContentTest {

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final SdkTracerProvider tracers = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
    private final StubStreamingModel model = new StubStreamingModel();
    private final AgentRunner runner = new AgentRunner(model, RunFixtures.settings(Duration.ZERO, 3),
            new RunMetrics(new SimpleMeterRegistry()), new RunTracing(tracers.get("test"), true));

    private static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    private SpanData named(String name) {
        return spans.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " in " + spans.getFinishedSpanItems()));
    }

    @Test
    void capturedContentIsOnTheChatAndToolSpans() {
        String arguments = "{\"document\":\"The sea is wide.\"}";
        model.answer(new ModelEvent.ToolCallCompleted(0, "call-1", "write_document", arguments),
                new ModelEvent.Completed(null, FinishReason.TOOL_CALLS));
        model.answer(new ModelEvent.TextDelta("Written."), new ModelEvent.Completed(null, FinishReason.STOP));

        List<AgUiEvent> events = runner.run(RunFixtures.writer().build(),
                        RunFixtures.newThread(RunFixtures.userAsks("Write about the sea", "{}"),
                                new RunFixtures.RecordingJournal()), new StopSwitch(), new RunInbox(),
                        Context.root())
                .collect().asList().await().atMost(Duration.ofSeconds(10));

        assertTrue(events.get(events.size() - 1) instanceof AgUiEvent.RunFinished, events.toString());
        List<SpanData> chats = spans.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("chat test-model")).toList();
        assertEquals(2, chats.size());
        assertTrue(attribute(chats.get(0), "gen_ai.input.messages").contains("Write about the sea"));
        assertTrue(attribute(chats.get(0), "gen_ai.output.messages").contains("write_document"));
        assertTrue(attribute(chats.get(1), "gen_ai.output.messages").contains("Written."));
        SpanData tool = named("execute_tool write_document");
        assertEquals(arguments, attribute(tool, "gen_ai.tool.call.arguments"));
        assertTrue(attribute(tool, "gen_ai.tool.call.result").contains("The sea is wide."));
        assertEquals(chats.get(0).getSpanId(), tool.getParentSpanId());
        assertEquals(named("invoke_agent writer").getSpanId(), chats.get(1).getParentSpanId());
    }
}
