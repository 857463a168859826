package dev.aguistate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * What joining a long live run costs the server: {@link #JOINS} clients connect at once, without a cursor, to a run
 * whose log holds {@link #EVENTS} text deltas, so each gets a join prelude projected from the whole log, while a
 * probe asks {@code /q/health/live} every {@link #PROBE_EVERY_MILLIS} ms. Prints how long each join waited for its
 * first event and how long the probe's answers took. Through the server against the LLM stub, on the in-memory
 * store. Not part of {@code ./mvnw test}; command and results: docs/benchmarks.md.
 */
@QuarkusTest
@TestProfile(JoinBenchmark.Profile.class)
class JoinBenchmark extends StubbedLlmTestBase {

    /** The stub server, with an upstream that may stay silent while the run is joined. */
    public static class Profile extends StubbedLlmProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("agui.llm.idle-timeout", "10m");
            return overrides;
        }
    }

    private static final String AGENT = "/agui/stateless";
    private static final int EVENTS = 30_000;
    private static final int JOINS = 200;
    private static final long PROBE_EVERY_MILLIS = 50;

    @Test
    void joinsToALongLiveRun() throws Exception {
        String[] deltas = new String[EVENTS];
        for (int n = 0; n < EVENTS; n++) {
            deltas[n] = "w" + n + " ";
        }
        stub.enqueue(StubResponse.stream().text(deltas).stallAfter(EVENTS + 1).build()); // the role chunk first
        RunRequests run = RunRequests.fresh().user("talk for a long while");
        try (SseClient.LiveStream starter = client.open(AGENT, run.json())) {
            for (int n = 0; n < EVENTS; n++) {
                starter.await("TEXT_MESSAGE_CONTENT");
            }
            ExecutorService joiners = Executors.newFixedThreadPool(JOINS);
            List<Future<Long>> joins = new ArrayList<>();
            for (int n = 0; n < JOINS; n++) {
                String body = RunRequests.of(run.threadId(), "join-" + n).json();
                joins.add(joiners.submit(() -> firstEventMillis(body)));
            }
            List<Long> probes = new ArrayList<>();
            while (joins.stream().anyMatch(join -> !join.isDone())) {
                long sent = System.nanoTime();
                assertEquals(200, client.get("/q/health/live").statusCode());
                probes.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent));
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(PROBE_EVERY_MILLIS)); // the probe's pace
            }
            List<Long> firstEvents = new ArrayList<>();
            int timedOut = 0;
            for (Future<Long> join : joins) {
                long millis = join.get();
                if (millis < 0) {
                    timedOut++;
                } else {
                    firstEvents.add(millis);
                }
            }
            joiners.shutdown();
            System.out.printf(Locale.ROOT, "%d joins of a %d-event live run: first event p50 %d ms, p95 %d ms, "
                            + "max %d ms, %d without one within 30 s; /q/health/live (%d probes) p50 %d ms, max %d ms%n",
                    JOINS, EVENTS, percentile(firstEvents, 50), percentile(firstEvents, 95),
                    percentile(firstEvents, 100), timedOut, probes.size(), percentile(probes, 50),
                    percentile(probes, 100));
            client.post(AGENT + "/stop/" + run.threadId(), "{}", "Content-Type", "application/json");
        }
    }

    /** Connects without a cursor; how long the first event took, or -1 when the response took over 30 s. */
    private long firstEventMillis(String body) {
        long sent = System.nanoTime();
        try (SseClient.LiveStream joined = client.open(AGENT + "/connect", body)) {
            joined.readUntil(event -> true).orElseThrow();
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
        } catch (UncheckedIOException timedOut) {
            return -1;
        }
    }

    private static long percentile(List<Long> values, int percent) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.max(0, (int) Math.ceil(percent / 100.0 * sorted.size()) - 1));
    }
}
