package dev.aguistate.http;

import com.fasterxml.jackson.databind.JsonNode;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** A run whose outcome would make its thread larger than agui.store.max-thread-bytes ends truthfully, keeping nothing. */
@QuarkusTest
@TestProfile(RunLimitsTest.Limits.class)
class ThreadSizeLimitTest extends StubbedLlmTestBase {

    private final SseClient frank = client.sending("Authorization", "Bearer frank-key");

    @Test
    void aRunThatWouldOutgrowTheLimitEndsWithThreadTooLargeAndKeepsOnlyWhatFits() {
        stub.enqueue(StubResponse.stream().text("Hello").build());
        RunRequests small = RunRequests.fresh().user("hi");
        assertEquals("RUN_FINISHED", frank.run("/agui", small.json()).last().get("type").asText());

        stub.enqueue(StubResponse.stream().text("x".repeat(5000)).build());
        RunRequests big = RunRequests.of(small.threadId(), "run-big").user("write a lot");
        SseClient.Stream stream = frank.run("/agui", big.json());

        EventStreamVerifier.verify(stream.events(), big.threadId(), "run-big");
        assertEquals("thread_too_large", stream.last().get("code").asText());
        HttpResponse<String> stored = frank.get("/threads/" + small.threadId());
        assertEquals(200, stored.statusCode(), stored.body());
        JsonNode thread = RunRequests.parse(stored.body());
        assertEquals(3, thread.get("messages").size(), "the new question is kept, the answer that did not fit is not");
        assertEquals("write a lot", thread.at("/messages/2/content").asText());
        assertEquals("thread_too_large", thread.at("/lastRun/outcome").asText());
    }
}
