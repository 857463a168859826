package dev.aguistate.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a JFR recording (bench/alloc.sh) and prints the bytes allocated per event served: what each thread's
 * allocation counter ({@code jdk.ThreadAllocationStatistics}, once a second) grew by over the recording. Then the
 * top sites: the allocated class and the first frame of ours ({@code dev.aguistate}) on its stack, else the first
 * outside the JDK, weighed by JFR's TLAB events (every new thread-local allocation buffer weighs its size, charged
 * to the allocation that needed it; an allocation outside one, its own size), which together are all the process
 * allocated; then the same weights summed by that frame alone. Not {@code jdk.ObjectAllocationSample}: on JDK 17 a
 * sample weighs all its thread allocated since the last sample its throttle let through, and a handful of samples
 * took 40 % each.
 *
 * <p>{@code java -cp target/test-classes dev.aguistate.bench.AllocationProfile RECORDING.jfr EVENTS_PER_SECOND
 * RUNS_PER_SECOND [TOP]}
 */
public final class AllocationProfile {

    private AllocationProfile() {}

    public static void main(String[] args) throws IOException {
        double eventsPerSecond = Double.parseDouble(args[1]);
        double runsPerSecond = Double.parseDouble(args[2]);
        int top = args.length > 3 ? Integer.parseInt(args[3]) : 15;
        Map<String, Long> bySite = new HashMap<>();
        Map<String, Long> byOurFrame = new HashMap<>();
        Map<Long, long[]> byThread = new HashMap<>(); // a thread's counter: first and last seen
        Map<Long, String> names = new HashMap<>();
        long total = 0;
        Instant first = null;
        Instant last = null;
        List<RecordedEvent> events = RecordingFile.readAllEvents(Path.of(args[0]));
        for (RecordedEvent event : events) {
            if (event.getEventType().getName().equals("jdk.ThreadAllocationStatistics")) {
                long allocated = event.getLong("allocated");
                long[] seen = byThread.computeIfAbsent(event.getThread("thread").getJavaThreadId(),
                        thread -> new long[] {allocated, allocated});
                seen[0] = Math.min(seen[0], allocated);
                seen[1] = Math.max(seen[1], allocated);
                names.put(event.getThread("thread").getJavaThreadId(),
                        event.getThread("thread").getJavaName().replaceAll("[0-9]+", "N"));
            }
            String kind = event.getEventType().getName();
            if (!kind.equals("jdk.ObjectAllocationInNewTLAB") && !kind.equals("jdk.ObjectAllocationOutsideTLAB")) {
                continue;
            }
            long weight = kind.endsWith("InNewTLAB") ? event.getLong("tlabSize") : event.getLong("allocationSize");
            total += weight;
            first = first == null || event.getStartTime().isBefore(first) ? event.getStartTime() : first;
            last = last == null || event.getStartTime().isAfter(last) ? event.getStartTime() : last;
            String type = event.getClass("objectClass").getName();
            String site = site(event);
            bySite.merge(type + " @ " + site, weight, Long::sum);
            byOurFrame.merge(site, weight, Long::sum);
        }
        double seconds = Duration.between(first, last).toNanos() / 1e9;
        long counted = byThread.values().stream().mapToLong(seen -> seen[1] - seen[0]).sum();
        System.out.printf("%.1f MB allocated in %.1f s at %.0f events/s, %.1f runs/s: %.0f bytes per event, %.0f per "
                + "run (TLABs: %.0f per event)%n", counted / 1e6, seconds, eventsPerSecond, runsPerSecond,
                counted / seconds / eventsPerSecond, counted / seconds / runsPerSecond,
                total / seconds / eventsPerSecond);
        Map<String, Long> byName = new HashMap<>();
        byThread.forEach((thread, seen) -> byName.merge(names.get(thread), seen[1] - seen[0], Long::sum));
        System.out.println("by thread:");
        byName.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(6)
                .forEach(name -> System.out.printf("%5.1f %%  %6.0f B/event  %s%n", 100.0 * name.getValue() / counted,
                        name.getValue() / seconds / eventsPerSecond, name.getKey()));
        System.out.println("by site:");
        print(bySite, top, total, seconds, eventsPerSecond, runsPerSecond);
        // the sites are a long tail of small shares; summed by the frame of ours that allocated, they say which of
        // our methods to look at
        System.out.println("by frame of ours, whatever the class:");
        print(byOurFrame, top, total, seconds, eventsPerSecond, runsPerSecond);
    }

    private static void print(Map<String, Long> weights, int top, long total, double seconds, double eventsPerSecond,
                              double runsPerSecond) {
        weights.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
                .forEach(site -> System.out.printf("%5.1f %%  %6.0f B/event  %7.0f B/run  %s%n",
                        100.0 * site.getValue() / total, site.getValue() / seconds / eventsPerSecond,
                        site.getValue() / seconds / runsPerSecond, site.getKey()));
    }

    private static String site(RecordedEvent event) {
        if (event.getStackTrace() == null) {
            return "?";
        }
        String outsideJdk = null;
        for (RecordedFrame frame : event.getStackTrace().getFrames()) {
            String type = frame.getMethod().getType().getName();
            String method = type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
            if (type.startsWith("dev.aguistate.")) {
                return method;
            }
            if (outsideJdk == null && !type.startsWith("java.") && !type.startsWith("jdk.")
                    && !type.startsWith("sun.")) {
                outsideJdk = type + "." + frame.getMethod().getName();
            }
        }
        return outsideJdk == null ? "(JDK)" : outsideJdk;
    }
}
