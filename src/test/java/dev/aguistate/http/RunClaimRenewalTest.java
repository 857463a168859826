package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.LongWaitsProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** A run that lasts longer than agui.store.lock-ttl keeps its thread: the server renews the claim while it runs. */
@QuarkusTest
@TestProfile(LongWaitsProfile.class)
class RunClaimRenewalTest extends StubbedLlmTestBase {

    @Test
    void aLongRunStillHoldsItsThreadAfterSeveralClaimLifetimes() throws InterruptedException {
        stub.enqueue(StubResponse.stream().text("thinking", "...").stallAfter(2).build());
        RunRequests first = RunRequests.fresh().user("a long task");
        try (SseClient.LiveStream running = client.open("/agui/notebook", first.json())) {
            running.await("TEXT_MESSAGE_CONTENT");
            // Time itself is what this test is about: without renewal the claim would have lapsed twice over.
            Thread.sleep(LongWaitsProfile.LOCK_TTL.multipliedBy(3).toMillis());

            HttpResponse<String> second = client.post("/agui/notebook",
                    RunRequests.of(first.threadId(), "run-2").multitask("reject").user("me too").json(),
                    "Content-Type", "application/json", "Accept", "text/event-stream");

            assertEquals(409, second.statusCode(), "the running run's claim was renewed: " + second.body());
        }
        stub.enqueue(StubResponse.stream().text("free again").build());
        SseClient.Stream after = client.run("/agui/notebook",
                RunRequests.of(first.threadId(), "run-3").user("now?").json());
        assertEquals("RUN_FINISHED", after.last().get("type").asText(), "the claim went when the client left");
    }
}
