import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import dev.aguistate.llm.LlmConfig;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.OpenAiCompatibleModel;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * The read path of streamed completions alone (docs/benchmarks.md): the server's {@link OpenAiCompatibleModel} (our
 * Vert.x transport, SSE decoding, the chunks read into model events) on one event loop, STREAMS calls at a time, each
 * started again when it ends, against BenchServers' upstream stub in another process. After WARMUP seconds, for
 * SECONDS: the chunks read, the bytes this process allocated per chunk (every thread's allocation counter, exact), the
 * process's CPU per chunk (GC and JIT included) and the event loop's alone, and a JFR recording (settings=profile)
 * of that window into RECORDING for bench/JfrShares.java. Nothing else runs in this process, so these costs are the
 * read path's, whatever else the machine is doing.
 * Usage: java -cp target/classes:target/quarkus-app/lib/main/*:target/quarkus-app/lib/boot/* bench/ReadPath.java BASE_URL
 * STREAMS WARMUP SECONDS RECORDING
 */
public class ReadPath {

    public static void main(String[] args) throws Exception {
        String baseUrl = args[0];
        int streams = Integer.parseInt(args[1]);
        long warmupMillis = Long.parseLong(args[2]) * 1000;
        long seconds = Long.parseLong(args[3]);
        Path recording = Path.of(args[4]);
        LlmConfig config = new Defaults(baseUrl);
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        OpenAiCompatibleModel model = new OpenAiCompatibleModel(config, vertx, new SimpleMeterRegistry());
        ChatRequest request = ChatRequest.builder().messages(UserMessage.from("Hello")).build();
        AtomicLong events = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        Thread[] loop = new Thread[1];
        vertx.runOnContext(v -> loop[0] = Thread.currentThread());
        for (int i = 0; i < streams; i++) {
            vertx.runOnContext(v -> call(model, request, events, failures));
        }
        Thread.sleep(warmupMillis);

        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Recording jfr = new Recording(Configuration.getConfiguration("profile"));
        jfr.enable("jdk.ObjectAllocationSample").with("throttle", "2000/s"); // profile's 300/s: too few to rank sites
        jfr.start();
        long allocatedBefore = allocated(threads);
        long cpuBefore = os.getProcessCpuTime();
        long loopBefore = threads.getThreadCpuTime(loop[0].getId());
        long eventsBefore = events.get();
        long failuresBefore = failures.get();
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000);
        long chunks = events.get() - eventsBefore;
        double elapsed = (System.nanoTime() - start) / 1e9;
        long allocatedBytes = allocated(threads) - allocatedBefore;
        long cpuNanos = os.getProcessCpuTime() - cpuBefore;
        long loopNanos = threads.getThreadCpuTime(loop[0].getId()) - loopBefore;
        jfr.stop();
        jfr.dump(recording);
        System.out.printf("{\"streams\":%d,\"seconds\":%.1f,\"modelEvents\":%d,\"failures\":%d,\"eventsPerSecond\":%.0f,"
                        + "\"allocatedBytesPerEvent\":%.0f,\"processCpuUsPerEvent\":%.2f,\"eventLoopCpuUsPerEvent\":%.2f,"
                        + "\"processCpuPercent\":%.0f}%n",
                streams, elapsed, chunks, failures.get() - failuresBefore, chunks / elapsed,
                (double) allocatedBytes / chunks, cpuNanos / 1e3 / chunks, loopNanos / 1e3 / chunks,
                100 * cpuNanos / 1e9 / elapsed);
        System.exit(0);
    }

    /** One call, counting its model events; when it ends, the next one. */
    private static void call(OpenAiCompatibleModel model, ChatRequest request, AtomicLong events,
                             AtomicLong failures) {
        model.stream(request).subscribe().with(
                event -> events.incrementAndGet(),
                failure -> {
                    failures.incrementAndGet();
                    call(model, request, events, failures);
                },
                () -> call(model, request, events, failures));
    }

    /** agui.llm.*'s defaults (docs/configuration.md) with this base URL; SmallRye's mapping needs the build's ASM. */
    private record Defaults(String url) implements LlmConfig {
        public Optional<String> baseUrl() { return Optional.of(url); }
        public Optional<String> apiKey() { return Optional.of("bench"); }
        public String model() { return "bench"; }
        public Optional<Double> temperature() { return Optional.empty(); }
        public Optional<Integer> maxTokens() { return Optional.empty(); }
        public Optional<Boolean> parallelToolCalls() { return Optional.empty(); }
        public Duration connectTimeout() { return Duration.ofSeconds(10); }
        public Duration responseTimeout() { return Duration.ofSeconds(60); }
        public Duration idleTimeout() { return Duration.ofSeconds(60); }
        public int maxRetries() { return 2; }
        public Duration maxRetryWait() { return Duration.ofSeconds(10); }
        public int maxConnections() { return 4096; }
        public Map<String, String> headers() { return Map.of(); }
        public Map<String, String> queryParams() { return Map.of(); }
        public boolean logRequests() { return false; }
        public Demo demo() { return null; }
    }

    /** What every live thread of this process has allocated so far. */
    private static long allocated(ThreadMXBean threads) {
        return Arrays.stream(threads.getThreadAllocatedBytes(threads.getAllThreadIds())).filter(b -> b > 0).sum();
    }
}
