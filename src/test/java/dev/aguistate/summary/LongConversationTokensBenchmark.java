package dev.aguistate.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.RequestTokens;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.testing.TestAgents;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Input tokens per run over a scripted 200-turn conversation, through the server against the LLM stub, without and
 * with summaries ({@code long-plain}, {@code long-summarized}: 40 messages pending, 10 kept). Each turn: a question,
 * an answer of about 70 tokens, every fourth turn a tool call and its result first. The tokens are what the stub
 * received, counted with {@code o200k_base} (message contents, tool names and arguments), summed over the run's
 * rounds. The summarizer's answer is scripted (about 250 tokens); the run waits for each summary to be stored
 * before the next turn, so the chart is reproducible. Not part of {@code ./mvnw test}; command and results:
 * docs/benchmarks.md. Writes target/long-conversation-tokens.csv and docs/long-conversation-tokens.svg.
 */
@QuarkusTest
@TestProfile(LongConversationTokensBenchmark.Profile.class)
class LongConversationTokensBenchmark extends StubbedLlmTestBase {

    /** The stub server without the count and age limits of the usual test profile: only the budget trims. */
    public static class Profile extends StubbedLlmProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("agui.run.context.max-messages", "0");
            overrides.remove("agui.run.context.max-age");
            return overrides;
        }
    }

    private static final int TURNS = 200;
    private static final Predicate<JsonNode> SUMMARIZER = request ->
            request.path("model").asText().equals(TestAgents.SUMMARY_MODEL);
    private static final String ANSWER = "Here is the plan for day %d: start with a walk through the old town while "
            + "it is still cool, then take the tram to the museum district; lunch at a small tavern near the river, "
            + "a ferry across in the afternoon, and dinner back in the centre. Book the ferry ahead.";
    private static final String SUMMARY = ("The user plans a two-week family trip through Portugal for four people, "
            + "mostly by train, with a preference for small hotels and early dinners. ").repeat(6);

    /** The input tokens of each run of a 200-turn conversation with {@code agent}. */
    private List<Integer> converse(String agent) {
        stub.reset();
        stub.setDefault(StubResponse.stream().text("(unscripted)").build());
        String threadId = RunRequests.fresh().threadId();
        List<Integer> perRun = new ArrayList<>();
        int summaries = 0;
        int covered = 0;
        stub.answerWhen(SUMMARIZER, StubResponse.stream().text(SUMMARY).build());
        for (int turn = 1; turn <= TURNS; turn++) {
            if (turn % 4 == 0) {
                stub.enqueue(StubResponse.stream().toolCall("call-" + turn, "clock", "{}").build());
            }
            stub.enqueue(StubResponse.stream().text(ANSWER.formatted(turn)).build());
            int before = stub.requests().size();
            client.run("/agui/" + agent, RunRequests.of(threadId, "run-" + turn)
                    .user("What do we do on day " + turn + "? We would like something for the children too.").json());
            List<JsonNode> sent = stub.requests().subList(before, stub.requests().size());
            perRun.add(sent.stream().filter(SUMMARIZER.negate()).mapToInt(RequestTokens::of).sum());
            if (stub.requests().stream().filter(SUMMARIZER).count() > summaries) {
                summaries++;
                covered = awaitSummaryBeyond(threadId, covered);
                stub.answerWhen(SUMMARIZER, StubResponse.stream().text(SUMMARY).build());
            }
        }
        return perRun;
    }

    /** Waits until the thread's summary covers more than {@code covered} messages: a new one was stored. */
    private int awaitSummaryBeyond(String threadId, int covered) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            int now = storedThread(threadId).at("/summary/coveredMessages").asInt(0);
            if (now > covered) {
                return now;
            }
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos()); // polls a condition: summaries follow the run
        }
        throw new AssertionError("no summary beyond " + covered + " messages was stored");
    }

    @Test
    void inputTokensPerRunWithAndWithoutSummaries() throws IOException {
        List<Integer> plain = converse("long-plain");
        List<Integer> summarized = converse("long-summarized");
        assertEquals(TURNS, plain.size());

        StringBuilder csv = new StringBuilder("turn,without_summaries,with_summaries\n");
        for (int i = 0; i < TURNS; i++) {
            csv.append(i + 1).append(',').append(plain.get(i)).append(',').append(summarized.get(i)).append('\n');
        }
        Files.writeString(Path.of("target/long-conversation-tokens.csv"), csv);
        Files.writeString(Path.of("docs/long-conversation-tokens.svg"), svg(plain, summarized));
        System.out.printf("%nwithout summaries: total %d, mean %d, last %d; with summaries: total %d, mean %d, "
                        + "last %d, max %d%n", sum(plain), sum(plain) / TURNS, plain.get(TURNS - 1), sum(summarized),
                sum(summarized) / TURNS, summarized.get(TURNS - 1),
                summarized.stream().mapToInt(Integer::intValue).max().orElse(0));
    }

    private static long sum(List<Integer> values) {
        return values.stream().mapToLong(Integer::longValue).sum();
    }

    /** A line chart: runs along x, input tokens up y. */
    private static String svg(List<Integer> plain, List<Integer> summarized) {
        int width = 720;
        int height = 360;
        int left = 60;
        int bottom = 40;
        int top = 30;
        int max = (plain.stream().mapToInt(Integer::intValue).max().orElse(1) / 5000 + 1) * 5000;
        double dx = (double) (width - left - 20) / (TURNS - 1);
        double dy = (double) (height - top - bottom) / max;
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
                .append(height).append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
                .append("<text x=\"").append(left).append("\" y=\"18\">Input tokens per run, 200-turn conversation "
                        + "(LongConversationTokensBenchmark)</text>\n");
        for (int tick = 0; tick <= max; tick += 5000) {
            double y = height - bottom - tick * dy;
            svg.append(String.format("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>%n", left, y, width - 20, y, left - 6,
                    y + 4, tick));
        }
        for (int turn = 0; turn <= TURNS; turn += 50) {
            double x = left + Math.max(0, turn - 1) * dx;
            svg.append(String.format("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n", x,
                    height - bottom + 16, Math.max(1, turn)));
        }
        svg.append(String.format("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">run (turn)</text>%n",
                (width + left) / 2, height - 6));
        line(svg, plain, left, height - bottom, dx, dy, "#c0392b");
        line(svg, summarized, left, height - bottom, dx, dy, "#2471a3");
        svg.append("<text x=\"").append(left + 10).append("\" y=\"").append(top + 14)
                .append("\" fill=\"#c0392b\">without summaries</text>\n")
                .append("<text x=\"").append(left + 10).append("\" y=\"").append(top + 30)
                .append("\" fill=\"#2471a3\">with summaries (after 40 messages, 10 kept)</text>\n</svg>\n");
        return svg.toString();
    }

    private static void line(StringBuilder svg, List<Integer> values, int left, int base, double dx, double dy,
                             String color) {
        String points = java.util.stream.IntStream.range(0, values.size())
                .mapToObj(i -> String.format("%.1f,%.1f", left + i * dx, base - values.get(i) * dy))
                .collect(Collectors.joining(" "));
        svg.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"1.5\" points=\"")
                .append(points).append("\"/>\n");
    }
}
