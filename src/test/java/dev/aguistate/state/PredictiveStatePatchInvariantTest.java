package dev.aguistate.state;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.testing.SideBySide;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The invariant of design §5: every drained patch applies cleanly, in order, with an independent JSON Patch
 * implementation, to what the client holds; the result equals {@link PredictiveState#clientView()}; and once the
 * arguments are complete the client holds its state with the key set to the parsed argument.
 */
@Execution(ExecutionMode.CONCURRENT)
class PredictiveStatePatchInvariantTest {

    private static final ObjectMapper JACKSON = new ObjectMapper();
    /** Needs pointer escaping itself. */
    private static final String KEY = "pred/icted~";
    /** Small enough for the corpus's short strings to reach the long-text deadline and the budget. */
    private static final DeltaPacing TIGHT_PACING = new DeltaPacing(Duration.ofMillis(20), 8, Duration.ofMillis(50), 3);

    /**
     * The cases are independent computations on this JVM alone, and the suite's other tests leave the cores mostly
     * idle while they wait for servers, so they are run on every core at once, and each test awaits its own.
     */
    @TestFactory
    List<DynamicTest> everyDrainAppliesCleanlyAndEndsAtTheFullParse() {
        List<String> names = new ArrayList<>();
        List<SideBySide.Work<Void>> cases = new ArrayList<>();
        for (Map.Entry<String, String> document : JsonCorpus.documents().entrySet()) {
            for (boolean wholeArguments : new boolean[] {false, true}) {
                for (boolean keyExists : new boolean[] {false, true}) {
                    names.add(document.getKey() + (wholeArguments ? " whole-args" : " named")
                            + (keyExists ? " replacing" : " new key"));
                    cases.add(() -> {
                        allChunkings(document.getValue(), wholeArguments, keyExists);
                        return null;
                    });
                }
            }
        }
        List<CompletableFuture<Void>> checked = SideBySide.start(Runtime.getRuntime().availableProcessors(), cases);
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            CompletableFuture<Void> check = checked.get(i);
            tests.add(DynamicTest.dynamicTest(names.get(i), () -> SideBySide.await(check)));
        }
        return tests;
    }

    private static void allChunkings(String document, boolean wholeArguments, boolean keyExists) throws Exception {
        // the target argument between siblings, one of which has a nested member of the same name
        String arguments = "{\"before\":\"x\",\"target\":" + document + ",\"after\":{\"target\":[1,2]}}";
        ObjectNode clientState = (ObjectNode) JACKSON.readTree("{\"sibling\":{\"keep\":[true]},\"zzz\":\"last\"}");
        if (keyExists) {
            clientState.set(KEY, JACKSON.readTree("{\"old\":\"value\",\"target\":\"stale\"}"));
        }
        ObjectNode expected = clientState.deepCopy();
        expected.set(KEY, JACKSON.readTree(wholeArguments ? arguments : document));
        PredictiveMapping mapping = new PredictiveMapping(KEY, "tool", wholeArguments ? "*" : "target");

        for (int number = 0; number < Fragmentation.chunkings(arguments); number++) {
            // even chunkings drain after every fragment; odd ones coalesce 2..6 fragments per drain, or (one in
            // four) are paced on a clock advancing 7 ms per fragment
            int drainEvery = number % 2 == 0 ? 1 : 2 + number % 5;
            boolean paced = number % 4 == 1;
            String where = "chunking " + number + (paced ? " paced" : " draining every " + drainEvery);
            JsonNode client = stream(arguments, number, paced ? 0 : drainEvery, clientState, mapping, where);
            assertTrue(expected.equals(PatchAssertions.NUMBERS_BY_VALUE, client),
                    () -> where + ": final state " + client + ", expected " + expected);
        }
    }

    /** @param drainEvery 0: paced by {@link #TIGHT_PACING}, drained after the last fragment */
    private static JsonNode stream(String arguments, int number, int drainEvery, ObjectNode clientState,
            PredictiveMapping mapping, String where) throws Exception {
        PredictiveState state = new PredictiveState(clientState, List.of(mapping));
        PatchAssertions client = new PatchAssertions(clientState);
        state.onToolCallStart("call-1", "tool");
        List<String> chunks = Fragmentation.chunking(arguments, number);
        for (int i = 0; i < chunks.size(); i++) {
            state.onArguments("call-1", chunks.get(i));
            if (drainEvery == 0 && i < chunks.size() - 1) {
                client.apply(state, state.drainDue(TIGHT_PACING, i * 7_000_000L), where + " fragment " + i);
            } else if (drainEvery == 0 || (i + 1) % drainEvery == 0 || i == chunks.size() - 1) {
                client.drainAndApply(state, where + " fragment " + i);
            }
        }
        return client.client();
    }
}
