package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.testing.AgentsFileProfile;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * An agents file's {@code supervisor} offers {@code researcher} as a sub-agent: its capabilities say so, and a call
 * streams the researcher's attributed run over real HTTP and the real langchain4j client; the thread keeps it.
 */
@QuarkusTest
@TestProfile(AgentsFileProfile.class)
class SubagentHttpTest extends StubbedLlmTestBase {

    @Test
    void theCapabilitiesListTheSubagents() {
        given().header(AgentsFileProfile.AUTHORIZATION[0], AgentsFileProfile.AUTHORIZATION[1])
                .get("/agui/supervisor/capabilities").then().statusCode(200)
                .body("multiAgent.supported", equalTo(true))
                .body("multiAgent.delegation", equalTo(true))
                .body("multiAgent.handoffs", equalTo(false))
                .body("multiAgent.subagents.name", contains("researcher"))
                .body("multiAgent.subagents.description", contains("Finds facts."));
        given().header(AgentsFileProfile.AUTHORIZATION[0], AgentsFileProfile.AUTHORIZATION[1])
                .get("/agui/researcher/capabilities").then().statusCode(200)
                .body("multiAgent.supported", equalTo(false));
    }

    @Test
    void aSubagentCallStreamsItsAttributedRunAndTheThreadKeepsIt() throws Exception {
        stub.enqueue(StubResponse.stream().toolCall("call_r", "researcher", "{\"task\":\"Otter facts\"}").build());
        stub.enqueue(StubResponse.stream().text("Otters ", "hold hands.").build());
        stub.enqueue(StubResponse.stream().text("They hold hands.").build());
        RunRequests request = RunRequests.fresh().user("Tell me about otters");

        SseClient.Stream stream = client.run("/agui/supervisor", request.json(), AgentsFileProfile.AUTHORIZATION);

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        JsonNode started = stream.ofType("SUBAGENT_STARTED").get(0);
        String id = started.get("subagentRunId").asText();
        assertEquals("researcher", started.get("name").asText());
        assertEquals("call_r", started.get("parentToolCallId").asText());
        List<String> types = stream.types();
        int start = types.indexOf("SUBAGENT_STARTED");
        int finish = types.indexOf("SUBAGENT_FINISHED");
        for (JsonNode event : stream.events().subList(start + 1, finish)) {
            assertEquals(id, event.path("subagentRunId").asText(), "the child's " + event);
        }
        assertEquals(List.of("TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"),
                types.subList(start + 1, finish));
        assertEquals("Otters hold hands.", stream.ofType("SUBAGENT_FINISHED").get(0).get("result").asText());
        JsonNode result = stream.ofType("TOOL_CALL_RESULT").get(0);
        assertEquals("Otters hold hands.", result.get("content").asText());
        assertFalse(result.has("subagentRunId"));
        assertTrue(finish < types.indexOf("TOOL_CALL_RESULT"), types.toString());
        JsonNode lastRequest = stub.requests().get(stub.requests().size() - 1);
        assertFalse(lastRequest.toString().contains("\"content\":\"Otters hold hands.\",\"role\":\"assistant\""),
                "the supervisor's model reads the answer as the call's result only");

        JsonNode messages = RunRequests.JSON.readTree(client.get("/threads/" + request.threadId() + "/messages",
                AgentsFileProfile.AUTHORIZATION).body()).get("messages");
        List<JsonNode> attributed = StreamSupport.stream(messages.spliterator(), false)
                .filter(m -> m.has("subagentRunId")).toList();
        assertEquals(1, attributed.size(), messages.toString());
        assertEquals(id, attributed.get(0).get("subagentRunId").asText());
        assertEquals("Otters hold hands.", attributed.get(0).get("content").asText());
        assertEquals(stream.ofType("TEXT_MESSAGE_START").get(0).get("messageId"), attributed.get(0).get("id"));

        // a client that sends only its new message (it holds nothing: a reload) gets the sub-agent's message back, attributed
        stub.enqueue(StubResponse.stream().text("Anything else?").build());
        RunRequests reload = RunRequests.of(request.threadId(), "reload-" + request.runId()).user("Thanks");
        SseClient.Stream again = client.run("/agui/supervisor", reload.json(), AgentsFileProfile.AUTHORIZATION);
        List<JsonNode> snapshots = again.ofType("MESSAGES_SNAPSHOT");
        JsonNode snapshot = snapshots.get(snapshots.size() - 1).get("messages");
        assertTrue(StreamSupport.stream(snapshot.spliterator(), false)
                .anyMatch(m -> id.equals(m.path("subagentRunId").asText(null))), snapshot.toString());
    }

    @Test
    void aClientsSubagentRunIdOnAMessageIsKept() throws Exception {
        stub.enqueue(StubResponse.stream().text("Noted.").build());
        RunRequests request = RunRequests.fresh();
        ObjectNode earlier = request.messages().addObject().put("id", "a-sub").put("role", "assistant")
                .put("content", "A sub-agent said this.").put("subagentRunId", "sub-1");
        request.user("And?");

        SseClient.Stream stream = client.run("/agui/researcher", request.json(), AgentsFileProfile.AUTHORIZATION);

        assertEquals("RUN_FINISHED", stream.last().get("type").asText(), stream.types().toString());
        JsonNode messages = RunRequests.JSON.readTree(client.get("/threads/" + request.threadId() + "/messages",
                AgentsFileProfile.AUTHORIZATION).body()).get("messages");
        assertEquals(List.of(earlier), StreamSupport.stream(messages.spliterator(), false)
                .filter(m -> m.get("id").asText().equals("a-sub")).toList());
        assertFalse(stub.requests().get(stub.requests().size() - 1).toString().contains("A sub-agent said this."),
                "a sub-agent's message is not the agent's own conversation");
    }

    @Test
    void aSubagentsQuestionSuspendsTheRunAndTheAnswerResumesItThenTheSupervisor() throws Exception {
        stub.enqueue(StubResponse.stream().toolCall("call_r", "researcher", "{\"task\":\"Where is A-17?\"}").build());
        stub.enqueue(StubResponse.stream().toolCall("call_l", "lookupOrder", "{\"orderNumber\":\"A-17\"}").build());
        RunRequests request = RunRequests.fresh().user("Where is my order A-17?");

        SseClient.Stream asked = client.run("/agui/supervisor", request.json(), AgentsFileProfile.AUTHORIZATION);

        EventStreamVerifier.verify(asked.events(), request.threadId(), request.runId());
        String id = asked.ofType("SUBAGENT_STARTED").get(0).get("subagentRunId").asText();
        JsonNode interrupt = asked.last().path("outcome").path("interrupts").get(0);
        assertEquals("interrupt", asked.last().path("outcome").path("type").asText(), asked.types().toString());
        assertEquals(List.of("call_l", id, "call_r"), List.of(interrupt.get("toolCallId").asText(),
                interrupt.get("subagentRunId").asText(), interrupt.path("metadata").path("parentToolCallId").asText()));
        JsonNode suspended = asked.ofType("SUBAGENT_FINISHED").get(0);
        assertEquals("suspended", suspended.path("outcome").path("type").asText());
        assertEquals(interrupt.get("id"), suspended.path("outcome").path("interruptIds").get(0));
        assertFalse(suspended.has("result"));
        assertTrue(asked.ofType("TOOL_CALL_RESULT").isEmpty(), "neither call has a result yet");
        JsonNode thread = RunRequests.JSON.readTree(client.get("/threads/" + request.threadId(),
                AgentsFileProfile.AUTHORIZATION).body());
        assertEquals(interrupt.get("id"), thread.path("pendingInterrupts").get(0).get("id"), thread.toString());

        stub.enqueue(StubResponse.stream().text("A-17 shipped on Monday.").build());
        stub.enqueue(StubResponse.stream().text("Your order left on Monday.").build());
        RunRequests answer = RunRequests.of(request.threadId(), "answer-" + request.runId());
        answer.body().set("resume", RunRequests.parse("""
                {"r":[{"interruptId":"%s","status":"resolved","payload":{"approved":true}}]}"""
                .formatted(interrupt.get("id").asText())).get("r"));

        SseClient.Stream resumed = client.run("/agui/supervisor", answer.json(), AgentsFileProfile.AUTHORIZATION);

        EventStreamVerifier.verify(resumed.events(), answer.threadId(), answer.runId());
        assertEquals(id, resumed.ofType("SUBAGENT_STARTED").get(0).get("subagentRunId").asText());
        List<JsonNode> results = resumed.ofType("TOOL_CALL_RESULT");
        assertEquals(List.of("call_l", "call_r"), results.stream().map(r -> r.get("toolCallId").asText()).toList());
        assertEquals(id, results.get(0).path("subagentRunId").asText());
        assertTrue(results.get(0).get("content").asText().endsWith("Order A-17: shipped on Monday"),
                results.get(0).toString());
        assertEquals("A-17 shipped on Monday.", results.get(1).get("content").asText());
        assertEquals("A-17 shipped on Monday.", resumed.ofType("SUBAGENT_FINISHED").get(0).get("result").asText());
        assertEquals("success", resumed.last().path("outcome").path("type").asText(), resumed.types().toString());
        JsonNode researcherRequest = stub.requests().get(stub.requests().size() - 2);
        assertTrue(researcherRequest.toString().contains("Where is A-17?")
                && researcherRequest.toString().contains("shipped on Monday"), "its task, its call and the result: "
                + researcherRequest);

        JsonNode after = RunRequests.JSON.readTree(client.get("/threads/" + request.threadId(),
                AgentsFileProfile.AUTHORIZATION).body());
        assertTrue(after.path("pendingInterrupts").isEmpty(), after.toString());
        assertEquals(List.of("user", "assistant", "tool", "assistant", "tool", "assistant", "assistant"),
                StreamSupport.stream(after.path("messages").spliterator(), false).map(m -> m.get("role").asText())
                        .toList(), "the call's result, the researcher's messages, then the supervisor's answer");
    }
}
