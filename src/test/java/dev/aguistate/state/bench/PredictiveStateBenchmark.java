package dev.aguistate.state.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.aguistate.state.PredictiveMapping;
import dev.aguistate.state.PredictiveState;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Predictive state under streaming: one benchmark operation streams a whole tool argument in 4-character chunks,
 * draining after every chunk (interval 0), through our incremental pipeline or through the naive
 * re-parse-and-diff baseline. {@link #main} runs both with short JMH settings and prints markdown tables with the
 * time per chunk, then the wire bytes and visible latency from {@link StreamingSimulation}. Command: see
 * docs/predictive-state.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PredictiveStateBenchmark {

    static final int CHUNK_SIZE = 4;
    private static final int[] KILOBYTES = {3, 12, 48};
    private static final int[] COALESCE_MS = {0, 50, 250};

    @Param({"RECIPE", "DOCUMENT"})
    public ArgumentShapes shape;

    @Param({"3", "12", "48"})
    public int kilobytes;

    private List<String> chunks;

    @Setup
    public void setUp() {
        chunks = ArgumentShapes.chunks(shape.json(kilobytes * 1024), CHUNK_SIZE);
    }

    @Benchmark
    public void predictiveState(Blackhole blackhole) {
        PredictiveState state = new PredictiveState(JsonNodeFactory.instance.objectNode(),
                List.of(new PredictiveMapping(shape.argument, shape.tool, shape.argument)));
        state.onToolCallStart("call", shape.tool);
        for (String chunk : chunks) {
            state.onArguments("call", chunk);
            blackhole.consume(state.drain());
        }
    }

    @Benchmark
    public void naiveReparseAndDiff(Blackhole blackhole) throws Exception {
        NaivePredictor naive = new NaivePredictor(shape.argument);
        for (String chunk : chunks) {
            blackhole.consume(naive.onArguments(chunk));
        }
    }

    public static void main(String[] args) throws RunnerException {
        Collection<RunResult> ours = run("predictiveState", "3", "12", "48");
        // the baseline is quadratic: at 48 KB one operation takes tens of seconds, so it stops at 12 KB
        Collection<RunResult> naive = run("naiveReparseAndDiff", "3", "12");
        System.out.println("\n### Time per 4-character chunk (onArguments + drain), interval 0\n");
        System.out.println("| shape | argument | chunks | ours µs/chunk | naive µs/chunk | naive ÷ ours |");
        System.out.println("|---|---|---|---|---|---|");
        for (ArgumentShapes shape : ArgumentShapes.values()) {
            for (int kb : KILOBYTES) {
                int chunkCount = ArgumentShapes.chunks(shape.json(kb * 1024), CHUNK_SIZE).size();
                double oursPerChunk = score(ours, shape, kb) / chunkCount;
                double naivePerChunk = score(naive, shape, kb) / chunkCount;
                System.out.printf(Locale.ROOT, "| %s | %d KB | %d | %.2f | %s | %s |%n", shape, kb, chunkCount,
                        oursPerChunk, Double.isNaN(naivePerChunk) ? "–" : format(naivePerChunk),
                        Double.isNaN(naivePerChunk) ? "–" : format(naivePerChunk / oursPerChunk) + "×");
            }
        }
        printWireTable();
    }

    private static void printWireTable() {
        System.out.println("\n### STATE_DELTA bytes and visible latency (simulated clock: one chunk every "
                + StreamingSimulation.CHUNK_EVERY_MS + " ms)\n");
        System.out.println("| shape | argument | interval | events | delta bytes | delta ÷ argument | visible latency |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (ArgumentShapes shape : ArgumentShapes.values()) {
            for (int kb : KILOBYTES) {
                String arguments = shape.json(kb * 1024);
                int argumentBytes = StreamingSimulation.utf8Bytes(arguments);
                for (int coalesceMs : COALESCE_MS) {
                    StreamingSimulation.Result result =
                            StreamingSimulation.run(shape, arguments, CHUNK_SIZE, coalesceMs);
                    System.out.printf(Locale.ROOT, "| %s | %d KB | %d ms | %d | %d | %.2f | %.0f ms |%n", shape, kb,
                            coalesceMs, result.events(), result.deltaBytes(),
                            (double) result.deltaBytes() / argumentBytes, result.visibleLatencyMs());
                }
            }
        }
    }

    private static Collection<RunResult> run(String benchmark, String... kilobytes) throws RunnerException {
        Options options = new OptionsBuilder()
                .include(PredictiveStateBenchmark.class.getName() + "." + benchmark + "$")
                .param("kilobytes", kilobytes)
                .forks(1)
                .warmupIterations(2)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(3)
                .measurementTime(TimeValue.seconds(2))
                .build();
        return new Runner(options).run();
    }

    /** Microseconds per operation (one whole argument), or NaN if that combination was not run. */
    private static double score(Collection<RunResult> results, ArgumentShapes shape, int kilobytes) {
        return results.stream()
                .filter(result -> result.getParams().getParam("shape").equals(shape.name())
                        && result.getParams().getParam("kilobytes").equals(String.valueOf(kilobytes)))
                .mapToDouble(result -> result.getPrimaryResult().getScore())
                .findFirst()
                .orElse(Double.NaN);
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
