package dev.aguistate.summary;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Naming a thread after its first exchange ({@code agui.threads.auto-name}), as the server does it after a run over
 * HTTP, with the real LLM adapter against the stub.
 *
 * <p>A profile of its own, because naming is an extra model call after every thread's first run, made when nobody
 * waits for it: on a profile shared with other tests it would take their scripted answers and change their request
 * counts and thread names.
 */
@QuarkusTest
@TestProfile(ThreadNamerTest.AutoNamed.class)
class ThreadNamerTest extends StubbedLlmTestBase {

    public static class AutoNamed extends StubbedLlmProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("agui.threads.auto-name", "true");
            return overrides;
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(20);
    /** The namer's request to the model, told apart from the runs' by its instructions. */
    private static final Predicate<JsonNode> NAMING = request -> request.toString()
            .contains(ThreadNamer.INSTRUCTIONS.substring(0, 40));

    private void run(RunRequests request) {
        assertEquals(200, client.post("/agui", request.json(), "Content-Type", "application/json").statusCode());
    }

    private List<JsonNode> namingRequests() {
        return stub.requests().stream().filter(NAMING).toList();
    }

    /** The thread's name, or null when it has none. */
    private static String name(String threadId) {
        JsonNode name = storedThread(threadId).path("name");
        return name.isTextual() ? name.asText() : null;
    }

    /** The thread's name once it has one, asked every 50 ms for up to {@link #WAIT}. */
    private static String awaitName(String threadId) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        String name = name(threadId);
        while (name == null && System.nanoTime() < deadline) {
            Thread.sleep(50);
            name = name(threadId);
        }
        return name;
    }

    /**
     * Runs a new thread whose proposed name is {@code name} and waits until it has it: naming this thread ran after
     * whatever naming the runs before it started.
     */
    private void namedAfterwards(String name) throws InterruptedException {
        stub.answerWhen(NAMING, StubResponse.stream().text(name).build());
        RunRequests other = RunRequests.fresh().user("Something else");
        run(other);
        assertEquals(name, awaitName(other.threadId()));
    }

    @Test
    void aRunsThreadIsNamedByTheModelAfterItsFirstExchangeOnly() throws InterruptedException {
        stub.setDefault(StubResponse.stream().text("Try a leek and potato soup.").build());
        stub.answerWhen(NAMING, StubResponse.stream().text("\"Soup ", "for four.\"").build());
        RunRequests first = RunRequests.fresh().user("What soup can I make for four?");
        run(first);

        assertEquals("Soup for four", awaitName(first.threadId()), "quotes and the final stop dropped");
        String asked = namingRequests().get(0).toString();
        assertTrue(asked.contains("What soup can I make for four?") && asked.contains("leek and potato"),
                "the model reads the first exchange: " + asked);

        run(RunRequests.of(first.threadId(), "run-2").user("And for six?"));
        namedAfterwards("Something else");
        assertEquals(2, namingRequests().size(), "one naming call for each thread, none for a second exchange");
        assertEquals("Soup for four", name(first.threadId()));
    }

    @Test
    void aNameTheOwnerSetsWhileTheModelIsAskedIsKept() throws InterruptedException {
        stub.setDefault(StubResponse.stream().text("ok").build());
        // slow enough that the rename below lands while the namer still reads the model's answer
        stub.answerWhen(NAMING, StubResponse.stream().text("Proposed", " by", " the", " model")
                .delayBetweenChunks(Duration.ofMillis(300)).build());
        RunRequests run = RunRequests.fresh().user("Name me");
        run(run);
        assertTrue(stub.awaitRequests(2, WAIT), "the namer asked the model");

        given().contentType("application/json").body("{\"name\":\"Mine\"}").patch("/threads/" + run.threadId())
                .then().statusCode(200);
        assertTrue(stub.awaitCompletedStreams(2, WAIT), "the model's proposal was sent in full");
        namedAfterwards("Later");

        assertEquals("Mine", name(run.threadId()), "the owner's name, not the model's");
    }

    @Test
    void aFailedCallLeavesTheThreadUnnamedAndIsNotTriedAgain() throws InterruptedException {
        stub.setDefault(StubResponse.stream().text("ok").build());
        stub.answerWhen(NAMING, StubResponse.error(500, "{\"error\":{\"message\":\"down\"}}"));
        RunRequests first = RunRequests.fresh().user("one");
        run(first);
        assertTrue(stub.awaitRequests(2, WAIT), "the namer asked the model");

        run(RunRequests.of(first.threadId(), "run-2").user("two"));
        namedAfterwards("Another");
        assertEquals(2, namingRequests().size(), "the failed thread was not asked about again");
        assertEquals(null, name(first.threadId()));
    }
}
