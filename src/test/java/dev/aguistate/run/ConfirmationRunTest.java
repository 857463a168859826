package dev.aguistate.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.testing.ClientStateReplay;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.testing.TestAgents;
import dev.aguistate.session.Caller;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadMeta;
import dev.aguistate.store.ThreadStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Human confirmation: a state tool's change streams as a prediction, the run asks instead of running the tool, and
 * the next run's answer applies it (approve, approve with edits) or restores what was there (reject), in both wire
 * forms: the canonical interrupt and resume, and the client's {@code confirm_changes} tool.
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class ConfirmationRunTest extends StubbedLlmTestBase {

    private static final String AGENT = "/agui/confirming-notebook";
    private static final String BEFORE = "{\"page\":{\"title\":\"Old page\"},\"other\":1}";
    private static final String PROPOSED_PAGE = "{\"title\":\"New page\",\"lines\":[\"one\",\"two\"]}";

    @Inject
    ThreadStore store;

    /** The first run of a thread: the page is proposed, streamed as a prediction, and the run asks about it. */
    private record Asked(RunRequests request, SseClient.Stream stream, JsonNode clientState) {

        JsonNode interrupt() {
            return stream.last().at("/outcome/interrupts/0");
        }

        /** The next request, as a client sends it: the thread's messages and the state it holds. */
        RunRequests next(String runId) {
            RunRequests next = RunRequests.of(request.threadId(), runId);
            storedMessages(request.threadId()).forEach(m -> next.message((ObjectNode) m));
            next.body().set("state", clientState.deepCopy());
            return next;
        }
    }

    private Asked propose(RunRequests request, String callId) {
        stub.enqueue(StubResponse.stream().toolCall(callId, "set_page", "{\"page\":" + PROPOSED_PAGE + "}")
                .argumentChunks(3, 5, 2, 7, 4, 6).build());
        request.body().set("state", RunRequests.parse(BEFORE));
        SseClient.Stream stream = client.run(AGENT, request.json());
        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        return new Asked(request, stream, ClientStateReplay.ofEveryClient(RunRequests.parse(BEFORE), stream.events())
                .held());
    }

    private Asked propose() {
        return propose(RunRequests.fresh().user("write a new page"), "call_page");
    }

    private SseClient.Stream resume(Asked asked, String runId, String resumeJson, String... replies) {
        stub.enqueue(StubResponse.stream().text(replies.length == 0 ? new String[] {"Done."} : replies).build());
        RunRequests next = asked.next(runId);
        next.body().set("resume", RunRequests.parse("{\"r\":" + resumeJson + "}").get("r"));
        SseClient.Stream stream = client.run(AGENT, next.json());
        EventStreamVerifier.verify(stream.events(), next.threadId(), runId);
        return stream;
    }

    private static String answer(Asked asked, String payload) {
        return "[{\"interruptId\":\"" + asked.interrupt().get("id").asText() + "\",\"status\":\"resolved\","
                + "\"payload\":" + payload + "}]";
    }

    @Test
    void theProposalStreamsThenTheRunAsksInsteadOfRunningTheTool() {
        Asked asked = propose();

        List<String> types = asked.stream().types();
        assertTrue(types.stream().filter("STATE_DELTA"::equals).count() >= 2, "the proposal streams: " + types);
        assertFalse(types.contains("TOOL_CALL_RESULT"), "the tool did not run: " + types);
        assertTrue(types.lastIndexOf("STATE_SNAPSHOT") < types.indexOf("STATE_DELTA"),
                "nothing takes the proposal off the screen: " + types);
        assertEquals(RunRequests.parse(PROPOSED_PAGE), asked.clientState().get("page"));
        JsonNode outcome = asked.stream().last().get("outcome");
        assertEquals("interrupt", outcome.get("type").asText());
        assertEquals(1, outcome.get("interrupts").size());
        JsonNode interrupt = asked.interrupt();
        assertEquals("tool_call", interrupt.get("reason").asText());
        assertEquals("call_page", interrupt.get("toolCallId").asText());
        assertEquals(TestAgents.CONFIRMING_MESSAGES.request(), interrupt.get("message").asText());
        assertEquals("boolean", interrupt.at("/responseSchema/properties/approved/type").asText());
        assertTrue(Instant.parse(interrupt.get("expiresAt").asText()).isAfter(Instant.now()));
        assertEquals(RunRequests.parse(BEFORE), storedState(asked.request().threadId()),
                "the proposal is never stored as the state");
        assertEquals(outcome.get("interrupts"), storedThread(asked.request().threadId()).get("pendingInterrupts"),
                "a reloaded page learns what the thread waits for");
    }

    @Test
    void approvingRunsTheToolAndSendsOneSnapshotAndASummary() {
        Asked asked = propose();

        SseClient.Stream stream = resume(asked, "run-approve", answer(asked, "{\"approved\":true}"), "Saved it.");

        List<String> types = stream.types();
        assertFalse(types.contains("TOOL_CALL_START"), "a tool-bound resume does not repeat the call: " + types);
        assertEquals(1, types.stream().filter("STATE_SNAPSHOT"::equals).count(), types.toString());
        JsonNode result = stream.ofType("TOOL_CALL_RESULT").get(0);
        assertEquals("call_page", result.get("toolCallId").asText());
        assertTrue(result.get("content").asText().startsWith(TestAgents.CONFIRMING_MESSAGES.approved()));
        assertEquals(RunRequests.parse(PROPOSED_PAGE), stream.ofType("STATE_SNAPSHOT").get(0).at("/snapshot/page"));
        assertEquals("Saved it.", stream.ofType("TEXT_MESSAGE_CONTENT").get(0).get("delta").asText());
        assertEquals("success", stream.last().at("/outcome/type").asText());
        assertEquals(RunRequests.parse(PROPOSED_PAGE), storedState(asked.request().threadId()).get("page"));
        assertEquals(List.of("tool:call_page"), toolResultsSentToTheLlm());
    }

    @Test
    void rejectingRestoresTheStateOnTheClientAndTellsTheLlm() {
        Asked asked = propose();

        SseClient.Stream stream = resume(asked, "run-reject", answer(asked, "{\"approved\":false}"));

        JsonNode restored = ClientStateReplay.of(asked.clientState(), stream.events()).held();
        assertEquals(RunRequests.parse(BEFORE), restored, "the client shows the state from before the proposal");
        assertEquals(TestAgents.CONFIRMING_MESSAGES.declined(),
                stream.ofType("TOOL_CALL_RESULT").get(0).get("content").asText());
        assertEquals(RunRequests.parse(BEFORE), storedState(asked.request().threadId()), "nothing of it is stored");
        JsonNode told = lastToolMessageSentToTheLlm();
        assertEquals("call_page", told.get("tool_call_id").asText());
        assertEquals(TestAgents.CONFIRMING_MESSAGES.declined(), told.get("content").asText());
    }

    @Test
    void approvingWithEditsRunsTheToolWithTheEditedArguments() {
        Asked asked = propose();

        SseClient.Stream stream = resume(asked, "run-edit",
                answer(asked, "{\"approved\":true,\"editedArgs\":{\"page\":{\"title\":\"Edited page\"}}}"));

        assertEquals("Edited page", stream.ofType("STATE_SNAPSHOT").get(0).at("/snapshot/page/title").asText());
        assertEquals("Edited page", storedState(asked.request().threadId()).at("/page/title").asText());
    }

    @Test
    void aResumeThatLeavesAnInterruptOpenIsAnErrorAndChangesNothing() {
        stub.enqueue(StubResponse.stream().toolCall("call_a", "set_page", "{\"page\":{\"title\":\"A\"}}")
                .toolCall("call_b", "set_page", "{\"page\":{\"title\":\"B\"}}").build());
        RunRequests request = RunRequests.fresh().user("two pages");
        request.body().set("state", RunRequests.parse(BEFORE));
        SseClient.Stream first = client.run(AGENT, request.json());
        JsonNode interrupts = first.last().at("/outcome/interrupts");
        assertEquals(2, interrupts.size());
        Asked asked = new Asked(request, first, ClientStateReplay.of(RunRequests.parse(BEFORE), first.events()).held());
        long version = storedVersion(request.threadId());
        int llmCalls = stub.requests().size();

        RunRequests partial = asked.next("run-partial");
        partial.body().putArray("resume").addObject().put("interruptId", interrupts.at("/0/id").asText())
                .put("status", "resolved").set("payload", RunRequests.parse("{\"approved\":true}"));
        SseClient.Stream stream = client.run(AGENT, partial.json());

        EventStreamVerifier.verify(stream.events(), partial.threadId(), partial.runId());
        assertEquals("RUN_ERROR", stream.last().get("type").asText());
        assertEquals("interrupts_pending", stream.last().get("code").asText());
        assertTrue(stream.last().get("message").asText().contains(interrupts.at("/1/id").asText()));
        assertEquals(version, storedVersion(request.threadId()), "nothing was kept");
        assertEquals(llmCalls, stub.requests().size(), "the LLM was not called");

        stub.enqueue(StubResponse.stream().text("Both done.").build());
        RunRequests complete = asked.next("run-complete");
        ArrayNode both = complete.body().putArray("resume");
        interrupts.forEach(i -> both.addObject().put("interruptId", i.get("id").asText()).put("status", "resolved")
                .set("payload", RunRequests.parse("{\"approved\":true}")));
        SseClient.Stream completed = client.run(AGENT, complete.json());
        assertEquals(List.of("call_a", "call_b"), completed.ofType("TOOL_CALL_RESULT").stream()
                .map(r -> r.get("toolCallId").asText()).toList());
        assertEquals("B", storedState(request.threadId()).at("/page/title").asText(), "applied in call order");
    }

    @Test
    void resumingTwiceCarriesTheAnswerOutOnce() {
        Asked asked = propose();
        String resume = answer(asked, "{\"approved\":true}");
        resume(asked, "run-once", resume);
        long version = storedVersion(asked.request().threadId());
        int llmCalls = stub.requests().size();

        RunRequests again = RunRequests.of(asked.request().threadId(), "run-again");
        again.body().set("resume", RunRequests.parse("{\"r\":" + resume + "}").get("r"));
        SseClient.Stream stream = client.run(AGENT, again.json());

        EventStreamVerifier.verify(stream.events(), again.threadId(), again.runId());
        assertEquals(List.of("RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"), stream.types());
        assertEquals(RunRequests.parse(PROPOSED_PAGE), stream.ofType("STATE_SNAPSHOT").get(0).at("/snapshot/page"));
        assertEquals(llmCalls, stub.requests().size(), "neither the tool nor the LLM ran again");
        assertEquals(version, storedVersion(asked.request().threadId()));
    }

    @Test
    void anExpiredInterruptCannotBeApprovedButCanBeCancelled() {
        Asked asked = propose();
        expireOpenInterrupts(asked.request().threadId());

        SseClient.Stream approved = resume(asked, "run-late", answer(asked, "{\"approved\":true}"));
        assertEquals("interrupt_expired", approved.last().get("code").asText());
        assertEquals(RunRequests.parse(BEFORE), storedState(asked.request().threadId()));

        SseClient.Stream cancelled = resume(asked, "run-cancel",
                "[{\"interruptId\":\"" + asked.interrupt().get("id").asText() + "\",\"status\":\"cancelled\"}]");
        assertEquals("RUN_FINISHED", cancelled.last().get("type").asText());
        assertEquals(TestAgents.CONFIRMING_MESSAGES.declined(),
                cancelled.ofType("TOOL_CALL_RESULT").get(0).get("content").asText());
        assertEquals(RunRequests.parse(BEFORE), ClientStateReplay.of(asked.clientState(), cancelled.events()).held());
    }

    @Test
    void aNewUserMessageInsteadOfAnAnswerDeclinesThePendingChange() {
        Asked asked = propose();
        stub.enqueue(StubResponse.stream().text("Sure, something else.").build());
        RunRequests next = asked.next("run-other").user("actually, do something else");

        SseClient.Stream stream = client.run(AGENT, next.json());

        EventStreamVerifier.verify(stream.events(), next.threadId(), next.runId());
        assertEquals(TestAgents.CONFIRMING_MESSAGES.declined(),
                stream.ofType("TOOL_CALL_RESULT").get(0).get("content").asText());
        assertEquals(RunRequests.parse(BEFORE), ClientStateReplay.of(asked.clientState(), stream.events()).held());
        assertEquals(RunRequests.parse(BEFORE), storedState(next.threadId()));
        JsonNode messages = stub.lastRequest().get("messages");
        JsonNode declined = messages.get(messages.size() - 2);
        assertEquals("call_page", declined.path("tool_call_id").asText(), "the declined result, then: " + messages);
        assertEquals("actually, do something else", messages.get(messages.size() - 1).get("content").asText());

        stub.enqueue(StubResponse.stream().text("ok").build());
        SseClient.Stream after = client.run(AGENT, RunRequests.of(next.threadId(), "run-after").json());
        assertEquals("RUN_FINISHED", after.last().get("type").asText(), "the thread waits for nothing any more");
    }

    @Test
    void aRunWithNothingToAnswerWhileTheThreadWaitsAsksAgainWithoutAnLlmCall() {
        Asked asked = propose();
        int llmCalls = stub.requests().size();

        SseClient.Stream stream = client.run(AGENT, asked.next("run-reloaded").json());

        EventStreamVerifier.verify(stream.events(), asked.request().threadId(), "run-reloaded");
        assertEquals("interrupt", stream.last().at("/outcome/type").asText());
        assertEquals(asked.interrupt(), stream.last().at("/outcome/interrupts/0"), "the same interrupt, asked again");
        assertEquals(llmCalls, stub.requests().size());
        assertEquals(RunRequests.parse(BEFORE), storedState(asked.request().threadId()));

        SseClient.Stream connected = client.run(AGENT + "/connect",
                RunRequests.of(asked.request().threadId(), "connect-1").json());
        assertEquals("interrupt", connected.last().at("/outcome/type").asText(), connected.raw());
        assertEquals(asked.interrupt(), connected.last().at("/outcome/interrupts/0"),
                "a connect restating the thread says what it waits for, as the run that asked did");
    }

    @Test
    void aResumeOfAnUnknownInterruptIsAnError() {
        RunRequests request = RunRequests.fresh().user("hi");
        request.body().putArray("resume").addObject().put("interruptId", "no-such").put("status", "resolved")
                .set("payload", RunRequests.parse("{\"approved\":true}"));

        SseClient.Stream stream = client.run(AGENT, request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("unknown_interrupt", stream.last().get("code").asText());
    }

    @Test
    void theClientToolFormAsksWithAConfirmChangesCallAndReadsTheToolAnswer() {
        RunRequests request = RunRequests.fresh().user("write a new page")
                .tool("confirm_changes", "Ask the user to confirm", "{\"type\":\"object\",\"properties\":{}}");
        Asked asked = propose(request, "call_page");

        assertFalse(toolNamesOffered().contains("confirm_changes"), "the LLM is not offered confirm_changes");
        List<JsonNode> starts = asked.stream().ofType("TOOL_CALL_START");
        assertEquals(List.of("set_page", "confirm_changes"), starts.stream()
                .map(s -> s.get("toolCallName").asText()).toList());
        assertEquals("success", asked.stream().last().at("/outcome/type").asText());
        String confirmId = starts.get(1).get("toolCallId").asText();
        assertEquals(RunRequests.JSON.valueToTree(List.of(confirmId)),
                asked.stream().last().at("/outcome/pendingToolCallIds"),
                "the confirm_changes call is left for the client to answer");
        SseClient.Stream connected = client.run(AGENT + "/connect",
                RunRequests.of(asked.request().threadId(), "connect-1").json());
        assertEquals(asked.stream().last().get("outcome"), connected.last().get("outcome"),
                "a connect restating the thread names the same call");

        stub.enqueue(StubResponse.stream().text("Saved.").build());
        RunRequests next = asked.next("run-accept");
        next.body().set("tools", request.body().get("tools"));
        next.message(RunRequests.parse("{\"id\":\"answer-1\",\"role\":\"tool\",\"toolCallId\":\"" + confirmId
                + "\",\"content\":\"{\\\"accepted\\\":true}\"}"));
        SseClient.Stream stream = client.run(AGENT, next.json());

        EventStreamVerifier.verify(stream.events(), next.threadId(), next.runId());
        assertEquals("call_page", stream.ofType("TOOL_CALL_RESULT").get(0).get("toolCallId").asText());
        assertEquals(RunRequests.parse(PROPOSED_PAGE), storedState(next.threadId()).get("page"));
        assertEquals(List.of("tool:call_page"), toolResultsSentToTheLlm(),
                "the LLM sees the page's result, not the confirmation between server and user");
    }

    private void expireOpenInterrupts(String threadId) {
        StoredThread thread = store.load(Caller.ANONYMOUS.thread(threadId)).await().atMost(Duration.ofSeconds(5)).orElseThrow();
        List<Interrupt> expired = thread.meta().openInterrupts().stream()
                .map(i -> new Interrupt(i.id(), i.reason(), i.message(), i.toolCallId(), i.responseSchema(),
                        Instant.now().minusSeconds(60).toString(), i.metadata(), i.subagentRunId()))
                .toList();
        ThreadMeta meta = new ThreadMeta(thread.meta().messageTimes(), expired, thread.meta().resolvedInterrupts(),
                null, thread.meta().lastRun());
        store.commit(new ThreadCommit(new StoredThread(thread.threadId(), thread.owner(), thread.agent(),
                thread.state(), thread.messages(), meta, 0, Instant.EPOCH, Instant.EPOCH), thread.version(), List.of()))
                .await().atMost(Duration.ofSeconds(5));
    }

    private static JsonNode storedState(String threadId) {
        return storedThread(threadId).get("state");
    }

    private static long storedVersion(String threadId) {
        return storedThread(threadId).get("version").asLong();
    }

    private static JsonNode storedMessages(String threadId) {
        return storedThread(threadId).get("messages");
    }

    /** The tool results of the last LLM request, as "tool:&lt;call id&gt;". */
    private List<String> toolResultsSentToTheLlm() {
        List<String> results = new ArrayList<>();
        stub.lastRequest().get("messages").forEach(m -> {
            if ("tool".equals(m.get("role").asText())) {
                results.add("tool:" + m.get("tool_call_id").asText());
            }
        });
        return results;
    }

    private JsonNode lastToolMessageSentToTheLlm() {
        JsonNode last = null;
        for (JsonNode m : stub.lastRequest().get("messages")) {
            if ("tool".equals(m.get("role").asText())) {
                last = m;
            }
        }
        return last;
    }

    private List<String> toolNamesOffered() {
        List<String> names = new ArrayList<>();
        stub.lastRequest().get("tools").forEach(t -> names.add(t.at("/function/name").asText()));
        return names;
    }
}
