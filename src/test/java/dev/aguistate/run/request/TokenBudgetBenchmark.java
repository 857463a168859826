package dev.aguistate.run.request;

import dev.aguistate.run.OfferedTools;
import dev.aguistate.run.RunFixtures;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.llm.TokenCalibration;
import dev.aguistate.llm.TokenEstimator;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.ToolCall;
import dev.aguistate.state.StatePrompt;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * What building one round's LLM request costs on a long thread ({@link ChatRequests#forRound}), without a token
 * budget ({@code maxInputTokens} 0: nothing is counted), with one the thread fits (everything is counted, nothing
 * dropped: gpt-4o's default) and with one that trims it to a few turns; with the units' counts kept from the last
 * request (a thread's next round or run, as the server does) and without (every message tokenized again). The thread: {@code turns} turns of a user
 * question and an answer of about 60 words, every fourth with a tool call and its result. The difference to 0 is
 * the time budgeting adds to a run's round. Command and results: docs/benchmarks.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TokenBudgetBenchmark {

    @Param({"200"})
    public int turns;

    @Param({"0", "105216", "4000"})
    public int maxInputTokens;

    /** Whether the units' counts are kept from one request to the next (the server keeps them). */
    @Param({"true", "false"})
    public boolean cached;

    private static final TokenEstimator ESTIMATOR = TokenEstimator.forModel("gpt-4o");

    private ChatRequests requests;
    private List<Message> transcript;

    @Setup
    public void setUp() {
        transcript = new ArrayList<>();
        String answer = "Day plan: a morning walk through the old town, lunch at a small tavern, a museum in the "
                + "afternoon and dinner by the river; book the tram tickets ahead and bring a light jacket. ";
        for (int turn = 0; turn < turns; turn++) {
            transcript.add(new Message.User("u" + turn, "What do we do on day " + turn + " of the trip?"));
            if (turn % 4 == 3) {
                transcript.add(new Message.Assistant("c" + turn, null,
                        List.of(new ToolCall("call" + turn, "get_weather", "{\"day\":" + turn + "}"))));
                transcript.add(new Message.Tool("t" + turn, "{\"forecast\":\"sunny\",\"high\":24}", "call" + turn));
            }
            transcript.add(new Message.Assistant("a" + turn, answer + turn, null));
        }
        AgentDefinition agent = AgentDefinition.builder("bench").instructions("You plan trips.").stateless().build();
        RunAgentInput input = RunFixtures.input("{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[]}");
        requests = new ChatRequests(agent, new StatePrompt(StatePrompt.DEFAULT_TEMPLATE, 16_000),
                new ContextWindow(0, null), maxInputTokens == 0 ? TokenBudget.NONE
                        : new TokenBudget(maxInputTokens, ESTIMATOR, new TokenCalibration(),
                                new CountedUnits(cached ? 100_000 : 0)),
                null, input.context(), OfferedTools.of(agent, input).specifications());
    }

    @Benchmark
    public ChatRequest buildRequest() {
        return requests.forRound(RoundKind.TOOLS, null, transcript, Map.of());
    }

    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder().include(TokenBudgetBenchmark.class.getName()).forks(1)
                .warmupIterations(3).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(2)).build()).run();
    }
}
