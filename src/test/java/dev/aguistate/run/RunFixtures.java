package dev.aguistate.run;

import dev.aguistate.run.request.ContextWindow;
import dev.aguistate.run.request.CountedUnits;
import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.llm.TokenCalibration;
import dev.aguistate.llm.TokenEstimator;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.protocol.RunAgentInputReader;
import dev.aguistate.state.JsonType;
import dev.aguistate.state.StateLayers;
import dev.aguistate.state.DeltaPacing;
import dev.aguistate.state.StatePrompt;
import dev.aguistate.state.StateSchema;
import dev.aguistate.tools.BackendTool;
import io.smallrye.mutiny.Uni;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Agents, requests and a recording journal for the plain unit tests of the run loop (no Quarkus). */
public final class RunFixtures {

    public static final StateSchema DOCUMENT = StateSchema.builder()
            .key("document", "The document's text", JsonType.STRING)
            .key("notes", "Notes, oldest first", JsonType.ARRAY)
            .build();

    private RunFixtures() {}

    /**
     * An agent whose {@code write_document} tool sets the document, predicted from its argument while it streams,
     * and whose {@code add_note} appends notes.
     */
    public static AgentDefinition.Builder writer() {
        return AgentDefinition.builder("writer")
                .instructions("Write what the user asks for.")
                .state(DOCUMENT)
                .tool(BackendTool.builder("write_document")
                        .description("Replace the document")
                        .stringParameter("document", "the new text", true)
                        .outputToState("document", "document")
                        .handler((args, context) -> args))
                .tool(BackendTool.stateTool("add_note", "Add notes", AgUiJson.tree(
                        "{\"type\":\"object\",\"properties\":{\"notes\":{\"type\":\"array\"}}}"),
                        "Noted.", Map.of("notes", "notes")))
                .predict("document", "write_document", "document");
    }

    /** A request as a client sends it, parsed by the server's own reader. */
    public static RunAgentInput input(String json) {
        return RunAgentInputReader.read(json.getBytes(StandardCharsets.UTF_8));
    }

    static RunAgentInput userAsks(String text, String stateJson) {
        return input("""
                {"threadId":"t","runId":"r","state":%s,
                 "messages":[{"id":"u1","role":"user","content":"%s"}]}""".formatted(stateJson, text));
    }

    /** A run on a thread the server has not seen: every message of the request is new. */
    static RunStart newThread(RunAgentInput input, RecordingJournal journal) {
        boolean asks = input.messages().stream().anyMatch(m -> m instanceof Message.User || m instanceof Message.Tool);
        return new RunStart(input, RunOptions.of(input), StateLayers.empty(), List.of(),
                new Conversation(input.messages(), input.messages(), Conversation.Restatement.NONE, asks), Map.of(), ThreadInterrupts.NONE,
                journal, null, null);
    }

    /** A run on a stored thread whose request brings {@code added} after the stored messages. */
    static RunStart storedThread(RunAgentInput input, RecordingJournal.Commit stored, List<Message> added,
                                 boolean answer) {
        List<Message> history = new ArrayList<>(stored.messages());
        history.addAll(added);
        return new RunStart(input, RunOptions.of(input), StateLayers.empty().absorb(stored.state()), stored.messages(),
                new Conversation(history, added, Conversation.Restatement.NONE, answer), Map.of(), stored.interrupts(), stored.journal(), null, null);
    }

    static RunSettings settings(Duration deltaInterval, int maxRounds) {
        return new RunSettings("test", "test-model", new StatePrompt(StatePrompt.DEFAULT_TEMPLATE, 16_000),
                new DeltaPacing(deltaInterval, 2048, deltaInterval.multipliedBy(4), 4),
                new ContextWindow(0, null), Duration.ofDays(1), maxRounds, 0, TokenEstimator.forModel("test"),
                new TokenCalibration(), new CountedUnits(1000));
    }

    /** The events as a client receives them: the server's own JSON. */
    static List<JsonNode> json(List<AgUiEvent> events) {
        return events.stream().map(e -> AgUiJson.tree(AgUiJson.write(e))).toList();
    }

    static List<String> types(List<AgUiEvent> events) {
        return events.stream().map(e -> e.type().name()).toList();
    }

    /**
     * A journal that keeps every checkpoint and the run's end, or fails them all with {@code failure}. {@code commits}
     * holds what the run kept at its end (its own final progress, or its last checkpoint's when it failed or was
     * stopped); {@code ends} how it ended.
     */
    static final class RecordingJournal implements RunJournal {

        record Commit(JsonNode state, List<Message> messages, ThreadInterrupts interrupts, RecordingJournal journal) {}

        final List<Commit> checkpoints = new ArrayList<>();
        final List<Commit> commits = new ArrayList<>();
        final List<RunEnd> ends = new ArrayList<>();
        RuntimeException failure;

        @Override
        public Uni<Void> keep(RunProgress progress) {
            if (failure != null) {
                return Uni.createFrom().failure(failure);
            }
            checkpoints.add(commit(progress));
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> end(RunProgress progress, RunEnd end) {
            if (failure != null) {
                return Uni.createFrom().failure(failure);
            }
            ends.add(end);
            if (progress != null) {
                commits.add(commit(progress));
            } else if (!checkpoints.isEmpty()) {
                commits.add(checkpoints.get(checkpoints.size() - 1));
            }
            return Uni.createFrom().voidItem();
        }

        private Commit commit(RunProgress progress) {
            return new Commit(progress.state(), progress.messages(), progress.interrupts(), this);
        }
    }
}
