package dev.aguistate.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.testing.DefaultsProfile;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/**
 * The samples with confirmation the other way round from the default: the recipe asks, the document writes at
 * once (the default configuration, document asking and recipe not, runs in the conformance and browser suites).
 */
@QuarkusTest
@TestProfile(DefaultsProfile.class)
class SampleConfirmationTest {

    private final SseClient client = SseClient.forTestServer();

    private SseClient.Stream run(String agent, String ask) {
        RunRequests request = RunRequests.fresh().user(ask);
        request.body().putObject("state");
        SseClient.Stream stream = client.run("/agui/" + agent, request.json());
        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        return stream;
    }

    @Test
    void theRecipeAsksBeforeItChangesTheCard() {
        SseClient.Stream stream = run("recipe", "Make me a pasta recipe");

        assertEquals("interrupt", stream.last().at("/outcome/type").asText());
        assertEquals("Put this recipe on your card?", stream.last().at("/outcome/interrupts/0/message").asText());
        assertTrue(stream.ofType("TOOL_CALL_RESULT").isEmpty(), stream.types().toString());
    }

    @Test
    void theDocumentIsWrittenWithoutAsking() {
        SseClient.Stream stream = run("document", "Write a document about the sea");

        assertEquals("success", stream.last().at("/outcome/type").asText());
        assertEquals(1, stream.ofType("TOOL_CALL_RESULT").size());
        assertTrue(stream.ofType("STATE_SNAPSHOT").get(0).at("/snapshot/document").asText().length() > 100);
    }
}
