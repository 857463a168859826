import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarises a JFR recording of the read path (bench/upstream-read.sh): the share of CPU samples
 * ({@code jdk.ExecutionSample}) and of allocated bytes ({@code jdk.ObjectAllocationSample}, whose weights estimate
 * the bytes allocated since the thread's previous sample) whose stack has a frame of each kind of work below, the
 * allocated bytes per event, and the ten largest allocation sites (innermost frame of ours or of the library that
 * asked, with the class allocated).
 * Usage: java bench/JfrShares.java RECORDING EVENTS
 */
public class JfrShares {

    /** Kinds of work, by the first stack frame (innermost first) whose "class.method" contains the text. */
    private static final Map<String, String> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put("Jackson databinding (any caller: also langchain4j's requests)", "com.fasterxml.jackson.databind.");
        KINDS.put("langchain4j on the stack (its callbacks run ours)", "dev.langchain4j.");
        KINDS.put("langchain4j chunk databinding", "dev.langchain4j.model.openai.internal.Json.fromJson");
        KINDS.put("our chunk reader (llm.ChunkReader)", "dev.aguistate.llm.ChunkReader.");
        KINDS.put("upstream read path (SseExchange.onBody)", "dev.aguistate.llm.SseExchange.onBody");
        KINDS.put("upstream chunk copy (VertxHandler.safeBuffer)", "io.vertx.core.net.impl.VertxHandler.safeBuffer");
        KINDS.put("SSE decoding (sse.SseDecoder)", "dev.aguistate.sse.SseDecoder.");
    }

    public static void main(String[] args) throws Exception {
        long events = Long.parseLong(args[1]);
        long samples = 0;
        double allocated = 0;
        Map<String, Long> cpu = new HashMap<>();
        Map<String, Double> bytes = new HashMap<>();
        Map<String, Double> sites = new HashMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            String type = event.getEventType().getName();
            if (event.getStackTrace() == null) {
                continue;
            }
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            if (type.equals("jdk.ExecutionSample")) {
                samples++;
                for (String kind : kindsOf(frames)) {
                    cpu.merge(kind, 1L, Long::sum);
                }
            } else if (type.equals("jdk.ObjectAllocationSample")) {
                double weight = event.getLong("weight");
                allocated += weight;
                for (String kind : kindsOf(frames)) {
                    bytes.merge(kind, weight, Double::sum);
                }
                sites.merge(site(frames) + " -> " + event.getClass("objectClass").getName(), weight, Double::sum);
            }
        }
        System.out.printf("CPU samples: %d%n", samples);
        for (String kind : KINDS.keySet()) {
            System.out.printf("  %5.1f %%  %s%n", 100.0 * cpu.getOrDefault(kind, 0L) / Math.max(1, samples), kind);
        }
        System.out.printf("allocated: %.0f MB, %.0f bytes per event (%d events)%n", allocated / 1e6,
                allocated / Math.max(1, events), events);
        for (String kind : KINDS.keySet()) {
            System.out.printf("  %5.1f %%  %s%n", 100.0 * bytes.getOrDefault(kind, 0.0) / Math.max(1, allocated), kind);
        }
        System.out.println("largest allocation sites (bytes per event):");
        sites.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(10)
                .forEach(e -> System.out.printf("  %7.0f  %s%n", e.getValue() / Math.max(1, events), e.getKey()));
    }

    private static java.util.Set<String> kindsOf(List<RecordedFrame> frames) {
        java.util.Set<String> kinds = new java.util.HashSet<>();
        for (RecordedFrame frame : frames) {
            String name = frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
            KINDS.forEach((kind, text) -> {
                if (name.contains(text)) {
                    kinds.add(kind);
                }
            });
        }
        return kinds;
    }

    /** The innermost frame outside the JDK and Netty's buffer classes: who asked for the bytes. */
    private static String site(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            if (!type.startsWith("java.") && !type.startsWith("jdk.") && !type.startsWith("sun.")
                    && !type.startsWith("io.netty.buffer.")) {
                return type + "." + frame.getMethod().getName();
            }
        }
        return frames.isEmpty() ? "?" : frames.get(0).getMethod().getType().getName();
    }
}
