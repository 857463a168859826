package dev.aguistate.session;

import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ToolCall;
import java.util.ArrayList;
import java.util.List;
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
 * What matching a request's messages with a long stored transcript costs ({@link Reconciliation}): a thread of
 * {@code messages} messages (user, assistant with a tool call, tool result, assistant text, in turn), and a request
 * that sends the whole history plus a new message (the usual client) or only the new message (a light client).
 * Command and results: docs/benchmarks.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ReconciliationBenchmark {

    @Param({"1000"})
    public int messages;

    private List<Message> stored;
    private List<Message> wholeHistory;
    private List<Message> onlyTheNewOne;

    @Setup
    public void setUp() {
        stored = new ArrayList<>();
        for (int turn = 0; stored.size() < messages; turn++) {
            String text = "message " + turn + " " + "lorem ipsum dolor sit amet ".repeat(8);
            stored.add(new Message.User("u" + turn, text));
            stored.add(new Message.Assistant("c" + turn, null,
                    List.of(new ToolCall("call" + turn, "lookup", "{\"query\":\"" + turn + "\"}"))));
            stored.add(new Message.Tool("t" + turn, "{\"result\":\"" + text + "\"}", "call" + turn));
            stored.add(new Message.Assistant("a" + turn, text, null));
        }
        stored = List.copyOf(stored.subList(0, messages));
        Message next = new Message.User("new", "And then?");
        // the client's copies are equal to the stored ones, not the same objects: they were parsed from its request
        wholeHistory = new ArrayList<>(stored.stream().map(ReconciliationBenchmark::copy).toList());
        wholeHistory.add(next);
        onlyTheNewOne = List.of(next);
    }

    private static Message copy(Message message) {
        if (message instanceof Message.User u) {
            return new Message.User(u.id(), u.content(), u.name(), u.encryptedValue(), u.metadata());
        }
        if (message instanceof Message.Assistant a) {
            return new Message.Assistant(a.id(), a.content(), a.toolCalls() == null ? null : List.copyOf(a.toolCalls()));
        }
        Message.Tool t = (Message.Tool) message;
        return new Message.Tool(t.id(), new String(t.content().text()), t.toolCallId());
    }

    @Benchmark
    public Reconciliation.Result wholeHistorySent() {
        return Reconciliation.of(stored, wholeHistory, null);
    }

    @Benchmark
    public Reconciliation.Result onlyTheNewMessageSent() {
        return Reconciliation.of(stored, onlyTheNewOne, null);
    }

    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder().include(ReconciliationBenchmark.class.getName()).forks(1)
                .warmupIterations(3).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(2)).build()).run();
    }
}
