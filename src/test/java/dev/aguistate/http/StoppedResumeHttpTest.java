package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.agent.ConfirmationMessages;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StoreProfiles;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A resume stopped while the approved call runs, over HTTP: the stop endpoint ends it before its round is kept, so
 * the call has no result yet and the thread still asks the question; answering it again carries the call out once.
 * (The run loop's side of it: {@code AgentRunnerTest.aResumeStoppedBeforeItsAnswerIsCarriedOutLeavesTheQuestionOpen}.)
 */
@QuarkusTest
@TestProfile(StoreProfiles.Users.Memory.class)
class StoppedResumeHttpTest extends StubbedLlmTestBase {

    private static final String AGENT = "/agui/" + GatedAgent.APPROVAL;

    private final SseClient carol = client.sending(StoreProfiles.Users.CAROL);

    @AfterEach
    void openTheGate() {
        GatedAgent.open(); // a failed test leaves no tool waiting
    }

    @Test
    void aResumeStoppedWhileItsApprovedCallRunsLeavesTheQuestionOpenAndItsNextAnswerRunsTheCallOnce()
            throws InterruptedException {
        GatedAgent.close();
        stub.enqueue(StubResponse.stream().toolCall("c1", GatedAgent.TOOL, "{}").build());
        RunRequests asking = RunRequests.fresh().user("Go through the gate");
        SseClient.Stream asked = carol.run(AGENT, asking.json());
        EventStreamVerifier.verify(asked.events(), asking.threadId(), asking.runId());
        assertEquals("interrupt", asked.last().at("/outcome/type").asText(), asked.raw());
        String interrupt = asked.last().at("/outcome/interrupts/0/id").asText();

        RunRequests approving = approval(asking.threadId(), "run-approved", interrupt);
        try (SseClient.LiveStream approved = carol.open(AGENT, approving.json())) {
            GatedAgent.awaitReached();
            HttpResponse<String> stop = carol.post(AGENT + "/stop/" + asking.threadId(), "");
            assertEquals(200, stop.statusCode(), stop.body());
            List<JsonNode> stopped = approved.readToEnd();
            EventStreamVerifier.verify(stopped, approving.threadId(), approving.runId());
            assertEquals("cancelled", stopped.get(stopped.size() - 1).at("/outcome/type").asText());
        }
        GatedAgent.open(); // the stopped call's tool returns now; nothing keeps what it says
        JsonNode thread = thread(asking.threadId());
        assertEquals(interrupt, thread.at("/pendingInterrupts/0/id").asText(), "the question is still asked: " + thread);
        assertEquals(List.of(), RunRequests.contents(thread, "tool"), "the stopped round is not kept: " + thread);

        stub.enqueue(StubResponse.stream().text("Through the gate.").build());
        RunRequests again = approval(asking.threadId(), "run-approved-again", interrupt);
        SseClient.Stream carried = carol.run(AGENT, again.json());

        EventStreamVerifier.verify(carried.events(), again.threadId(), again.runId());
        assertEquals("success", carried.last().at("/outcome/type").asText(), carried.raw());
        JsonNode after = thread(asking.threadId());
        assertEquals(List.of(ConfirmationMessages.GENERIC.approved() + "\npassed"), RunRequests.contents(after, "tool"),
                "the call ran once, as approved: " + after);
        assertEquals(0, after.path("pendingInterrupts").size(), after.toString());
    }

    private static RunRequests approval(String threadId, String runId, String interrupt) {
        RunRequests request = RunRequests.of(threadId, runId);
        request.body().set("resume", RunRequests.parse("""
                {"r":[{"interruptId":"%s","status":"resolved","payload":{"approved":true}}]}"""
                .formatted(interrupt)).get("r"));
        return request;
    }

    private JsonNode thread(String threadId) {
        HttpResponse<String> thread = carol.get("/threads/" + threadId);
        assertEquals(200, thread.statusCode(), thread.body());
        return RunRequests.parse(thread.body());
    }
}
