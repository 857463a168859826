package dev.aguistate.store.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A load driver for a running server: {@code clients} threads each POST short runs to {@code /agui} back to back
 * over keep-alive HTTP/1.1 and read each SSE stream to its end. A run counts only when its stream held
 * {@code RUN_FINISHED}. Runs started during the warm-up are not counted. Prints one markdown table row:
 * store, scenario, clients, runs/s, p50 and p99 run latency (ms), runs counted, runs failed.
 *
 * <p>Scenarios: {@code new} starts a new thread with every run (the store's load misses, the commit inserts);
 * {@code continue} gives each client one thread that every run continues (load hits, the commit updates at the
 * loaded version). A run sends one user message, so a continued thread's stored history stays two messages long.
 *
 * <p>Arguments: base URL, API key, thread id prefix (so that bench/runs-per-second.sh can find and delete the
 * threads), store (a label for the row), scenario, clients, warm-up seconds, measured seconds. JDK only, so it runs
 * from {@code target/test-classes} alone.
 */
public final class RunsPerSecond {

    private static final String FINISHED = "data: {\"type\":\"RUN_FINISHED\"";
    private static final String MESSAGE = "Hello";
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI endpoint;
    private final String apiKey;
    private final String threadPrefix;
    private final boolean continueThreads;
    private final List<Long> latenciesNanos = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger failed = new AtomicInteger();

    private RunsPerSecond(URI endpoint, String apiKey, String threadPrefix, boolean continueThreads) {
        this.endpoint = endpoint;
        this.apiKey = apiKey;
        this.threadPrefix = threadPrefix;
        this.continueThreads = continueThreads;
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 8) {
            throw new IllegalArgumentException("arguments: <base url> <api key> <thread id prefix> <store> "
                    + "<new|continue> <clients> <warm-up seconds> <measured seconds>");
        }
        RunsPerSecond driver = new RunsPerSecond(URI.create(args[0] + "/agui"), args[1], args[2],
                scenario(args[4]));
        int clients = Integer.parseInt(args[5]);
        long warmUpEnds = System.nanoTime() + Duration.ofSeconds(Long.parseLong(args[6])).toNanos();
        Duration measured = Duration.ofSeconds(Long.parseLong(args[7]));
        long ends = warmUpEnds + measured.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int client = 0; client < clients; client++) {
            Thread thread = new Thread(() -> driver.runUntil(warmUpEnds, ends), "client-" + client);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        driver.printRow(args[3], args[4], clients, measured);
    }

    private static boolean scenario(String name) {
        if (!name.equals("new") && !name.equals("continue")) {
            throw new IllegalArgumentException("scenario is new or continue, not " + name);
        }
        return name.equals("continue");
    }

    /** One client: runs back to back; counts those that start after {@code warmUpEnds} and end by {@code ends}. */
    private void runUntil(long warmUpEnds, long ends) {
        String continuedThread = threadPrefix + "-" + UUID.randomUUID();
        while (System.nanoTime() < ends && !Thread.currentThread().isInterrupted()) {
            long started = System.nanoTime();
            boolean finished = run(continueThreads ? continuedThread : threadPrefix + "-" + UUID.randomUUID());
            long done = System.nanoTime();
            if (started < warmUpEnds || done > ends) {
                continue;
            }
            if (finished) {
                latenciesNanos.add(done - started);
            } else {
                failed.incrementAndGet();
            }
        }
    }

    /** True if the run's stream held RUN_FINISHED. */
    private boolean run(String threadId) {
        String body = String.format(Locale.ROOT,
                "{\"threadId\":\"%s\",\"runId\":\"%s\",\"messages\":[{\"id\":\"%s\",\"role\":\"user\",\"content\":\"%s\"}]}",
                threadId, UUID.randomUUID(), UUID.randomUUID(), MESSAGE);
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .timeout(RUN_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .header("Authorization", "Bearer " + apiKey)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            HttpResponse<Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
            try (Stream<String> lines = response.body()) {
                // reads the whole stream even after RUN_FINISHED, so that the connection is free for the next run
                return response.statusCode() == 200 && lines.filter(line -> line.startsWith(FINISHED)).count() == 1;
            }
        } catch (IOException e) {
            System.err.println("run failed: " + e);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void printRow(String store, String scenario, int clients, Duration measured) {
        List<Long> sorted = new ArrayList<>(latenciesNanos);
        Collections.sort(sorted);
        System.out.printf(Locale.ROOT, "| %s | %s | %d | %.0f | %.1f | %.1f | %d | %d |%n", store, scenario, clients,
                sorted.size() / (double) measured.toSeconds(), millis(percentile(sorted, 50)),
                millis(percentile(sorted, 99)), sorted.size(), failed.get());
    }

    private static long percentile(List<Long> sorted, int percent) {
        return sorted.isEmpty() ? 0 : sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * percent / 100.0) - 1));
    }

    private static double millis(long nanos) {
        return nanos / 1_000_000.0;
    }
}
