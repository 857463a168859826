package dev.aguistate.store.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Message;
import dev.aguistate.state.bench.ArgumentShapes;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadKey;
import dev.aguistate.store.ThreadMeta;
import dev.aguistate.store.ThreadStore;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Load and save latency of each {@link ThreadStore}, one caller at a time, against the real servers: "load" is
 * {@link ThreadStore#load}, "save" is {@link ThreadStore#commit} at the version the previous commit returned
 * (the optimistic check a run's commit makes). The thread's state is a recipe-shaped JSON object of the given
 * size with a two-message history. {@link #main} runs JMH in sample mode and prints a markdown table of
 * percentiles. Ids are fresh per trial and deleted afterwards. Command: see docs/benchmarks.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
// sample mode: 15 s gives a PostgreSQL save (≈ 5 ms) some 3000 samples, enough for a steady p99
@Measurement(iterations = 3, time = 5)
public class ThreadStoreBenchmark {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String[] KILOBYTES = {"1", "100"};

    @Param({"MEMORY", "REDIS", "POSTGRES"})
    public StoreKind store;

    @Param({"1", "100"})
    public int kilobytes;

    private final String owner = "bench-" + UUID.randomUUID();
    private Vertx vertx;
    private ThreadStore threads;
    private ThreadKey loadedId;
    private StoredThread saved;

    @Setup
    public void setUp() {
        vertx = Vertx.vertx();
        threads = store.open(vertx);
        ObjectNode state = (ObjectNode) AgUiJson.tree(ArgumentShapes.RECIPE.json(kilobytes * 1024));
        loadedId = commit(thread(state), 0).key();
        saved = commit(thread(state), 0);
    }

    private StoredThread thread(ObjectNode state) {
        return new StoredThread(owner + "-" + UUID.randomUUID(), owner, "chat", state,
                List.of(new Message.User("m1", "Make me a pasta recipe"),
                        new Message.Assistant("m2", "Here it is.", List.of())),
                new ThreadMeta(Map.of("m1", Instant.EPOCH, "m2", Instant.EPOCH), List.of(), List.of(), null, null),
                0, Instant.EPOCH, Instant.EPOCH);
    }

    private StoredThread commit(StoredThread thread, long expectedVersion) {
        return threads.commit(new ThreadCommit(thread, expectedVersion, List.of())).await().atMost(WAIT);
    }

    @Benchmark
    public Optional<StoredThread> load() {
        return threads.load(loadedId).await().atMost(WAIT);
    }

    @Benchmark
    public StoredThread save() {
        saved = commit(saved, saved.version());
        return saved;
    }

    /** Deletes both threads; the listing then drops them from Redis's owner index, which leaves nothing behind. */
    @TearDown
    public void tearDown() throws Exception {
        threads.delete(loadedId).await().atMost(WAIT);
        threads.delete(saved.key()).await().atMost(WAIT);
        threads.list(owner, 0, 10).await().atMost(WAIT);
        if (threads instanceof AutoCloseable closeable) {
            closeable.close();
        }
        vertx.closeAndAwait();
    }

    public static void main(String[] args) throws RunnerException {
        Options options = new OptionsBuilder().include(ThreadStoreBenchmark.class.getName()).build();
        Collection<RunResult> results = new Runner(options).run();
        System.out.println("\n### Thread store latency, one caller (µs)\n");
        System.out.println("| store | state | load p50 | load p99 | load mean | save p50 | save p99 | save mean |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (StoreKind kind : StoreKind.values()) {
            for (String kb : KILOBYTES) {
                System.out.printf(Locale.ROOT, "| %s | %s KB | %s | %s |%n", kind.name().toLowerCase(Locale.ROOT), kb,
                        latencies(results, "load", kind, kb), latencies(results, "save", kind, kb));
            }
        }
    }

    /** "p50 | p99 | mean" of one benchmark and parameter pair. */
    private static String latencies(Collection<RunResult> results, String benchmark, StoreKind kind, String kb) {
        return results.stream()
                .filter(result -> result.getParams().getBenchmark().endsWith("." + benchmark)
                        && result.getParams().getParam("store").equals(kind.name())
                        && result.getParams().getParam("kilobytes").equals(kb))
                .map(result -> result.getPrimaryResult().getStatistics())
                .map(statistics -> String.format(Locale.ROOT, "%.1f | %.1f | %.1f", statistics.getPercentile(50),
                        statistics.getPercentile(99), statistics.getMean()))
                .findFirst()
                .orElse("– | – | –");
    }
}
