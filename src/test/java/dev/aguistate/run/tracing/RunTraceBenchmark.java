package dev.aguistate.run.tracing;

import dev.aguistate.llm.FinishReason;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.ModelUsage;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.RunAgentInputReader;
import dev.aguistate.tools.ToolOutcome;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.List;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * What a run's tracing costs the server ({@link RunTrace}): the spans of a run with two LLM calls and one tool
 * (invoke_agent, 2 × chat with usage and finish reason, execute_tool, RUN_STARTED's metadata): with the API's no-op
 * tracer ({@code noop}), with the SDK sampling nothing ({@code off}: spans numbered but not recorded, as with
 * Quarkus's disabled SDK) and with it sampling every run ({@code on}), a batch processor as Quarkus sets it up and an
 * exporter that drops the batches (the network is not the server's cost). Command and results: docs/benchmarks.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RunTraceBenchmark {

    @Param({"noop", "off", "on"})
    public String tracing;

    private SdkTracerProvider sdk;
    private RunTracing tracer;
    private final RunAgentInput input = RunAgentInputReader.read(
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[]}".getBytes(StandardCharsets.UTF_8));
    private final ChatRequest request = ChatRequest.builder().messages(UserMessage.from("Hi")).build();
    private final ModelEvent.Completed toolCalls = new ModelEvent.Completed(
            new ModelUsage("gpt", 120, 15, 135), FinishReason.TOOL_CALLS);
    private final ModelEvent.Completed stop = new ModelEvent.Completed(
            new ModelUsage("gpt", 150, 40, 190), FinishReason.STOP);
    private final ToolOutcome result = new ToolOutcome.Success("12:00", null);
    private final Message.Assistant answer = new Message.Assistant("m1", "", List.of());

    @Setup
    public void setUp() {
        Tracer chosen;
        if (tracing.equals("noop")) {
            chosen = OpenTelemetry.noop().getTracer("bench");
        } else {
            // off: the SDK sampling nothing, which is what a disabled SDK amounts to here
            sdk = SdkTracerProvider.builder().setSampler(tracing.equals("on") ? Sampler.alwaysOn() : Sampler.alwaysOff())
                    .addSpanProcessor(BatchSpanProcessor.builder(new Dropping()).build()).build();
            chosen = sdk.get("bench");
        }
        tracer = new RunTracing(chosen, false);
    }

    @TearDown
    public void tearDown() {
        if (sdk != null) {
            sdk.shutdown().join(5, TimeUnit.SECONDS);
        }
    }

    @Benchmark
    public Object run() {
        RunTrace trace = tracer.start("chat", input, "openai", Context.root());
        Object metadata = trace.startedMetadata();
        RunTrace.Chat first = trace.chat("gpt", request);
        first.completed(toolCalls);
        first.ended(null, false, () -> answer);
        RunTrace.Tool tool = trace.tool("call-1", "clock", "{}");
        tool.ended(result);
        RunTrace.Chat second = trace.chat("gpt", request);
        second.completed(stop);
        second.ended(null, false, () -> answer);
        trace.ended("success");
        return metadata;
    }

    /** Takes every batch and keeps nothing. */
    private static final class Dropping implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }

    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder().include(RunTraceBenchmark.class.getName()).forks(1)
                .warmupIterations(3).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(2)).build()).run();
    }
}
