package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.Message;
import dev.aguistate.session.Caller;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadMeta;
import dev.aguistate.store.ThreadStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Threads survive the run: history and state are stored, a reloaded page is hydrated, one run at a time. */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class ThreadPersistenceTest extends StubbedLlmTestBase {

    @Inject
    ThreadStore store;

    @Test
    void aFinishedRunIsStoredWithItsHistoryAndState() {
        stub.enqueue(StubResponse.stream().toolCall("c1", "add_note", "{\"text\":\"milk\"}").build());
        stub.enqueue(StubResponse.stream().text("Noted.").build());
        RunRequests request = RunRequests.fresh().user("remember milk");
        request.body().set("state", RunRequests.parse("{\"title\":\"Shopping\"}"));

        SseClient.Stream stream = client.run("/agui/notebook", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        JsonNode thread = storedThread(request.threadId());
        assertEquals("notebook", thread.get("agent").asText());
        assertEquals(3, thread.get("version").asInt(), "a checkpoint at the start, after the round of tools, at the end");
        assertEquals(request.runId(), thread.at("/lastRun/runId").asText());
        assertEquals("success", thread.at("/lastRun/outcome").asText());
        assertTrue(thread.path("activeRun").isMissingNode(), "no run is active once it ended: " + thread);
        assertEquals(RunRequests.parse("{\"title\":\"Shopping\",\"notes\":[\"milk\"]}"), thread.get("state"));
        JsonNode messages = thread.get("messages");
        assertEquals(List.of("user", "assistant", "tool", "assistant"), roles(messages));
        assertEquals("c1", messages.at("/1/toolCalls/0/id").asText());
        assertEquals(stream.ofType("TOOL_CALL_RESULT").get(0).get("messageId").asText(), messages.at("/2/id").asText(),
                "the stored tool message is the one the client holds");
        assertEquals("Noted.", messages.at("/3/content").asText());
        assertTrue(thread.toString().indexOf(":null") < 0, "no null fields: " + thread);
    }

    @Test
    void aReloadedPageIsRestatedWithoutAnLlmCall() {
        stub.enqueue(StubResponse.stream().text("Hello Bob.").build());
        RunRequests first = RunRequests.fresh().user("I am Bob");
        first.body().set("state", RunRequests.parse("{\"title\":\"Bob's notes\"}"));
        client.run("/agui/notebook", first.json());
        int written = storedThread(first.threadId()).get("version").asInt();

        RunRequests reload = RunRequests.of(first.threadId(), "run-after-reload");
        SseClient.Stream stream = client.run("/agui/notebook", reload.json());

        EventStreamVerifier.verify(stream.events(), reload.threadId(), "run-after-reload");
        assertEquals(List.of("RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"), stream.types());
        assertEquals(List.of("user", "assistant"), roles(stream.events().get(1).get("messages")));
        assertEquals("Bob's notes", stream.events().get(2).at("/snapshot/title").asText());
        assertEquals(1, stub.requests().size(), "nothing to answer: no LLM call");
        assertEquals(written, storedThread(first.threadId()).get("version").asInt(), "nothing written");
    }

    @Test
    void aClientThatSendsOnlyItsNewMessageContinuesTheWholeConversation() {
        stub.enqueue(StubResponse.stream().text("Hello Bob.").build());
        RunRequests first = RunRequests.fresh().user("I am Bob");
        client.run("/agui/notebook", first.json());

        stub.enqueue(StubResponse.stream().text("You are Bob.").build());
        RunRequests next = RunRequests.of(first.threadId(), "run-2").user("Who am I?");
        SseClient.Stream stream = client.run("/agui/notebook", next.json());

        EventStreamVerifier.verify(stream.events(), next.threadId(), "run-2");
        List<String> sent = new ArrayList<>();
        stub.lastRequest().get("messages").forEach(m -> sent.add(m.get("content").asText()));
        assertEquals(List.of("I am Bob", "Hello Bob.", "Who am I?"), sent.subList(sent.size() - 3, sent.size()),
                "the LLM sees the whole conversation");
        List<JsonNode> snapshots = stream.ofType("MESSAGES_SNAPSHOT");
        assertEquals(List.of("user", "assistant", "user"), roles(snapshots.get(snapshots.size() - 1).get("messages")),
                "the client is told the history it lacks");
        assertEquals(List.of("user", "assistant", "user", "assistant"), roles(storedThread(first.threadId()).get("messages")));
    }

    @Test
    void messagesOlderThanTheMaxAgeStayStoredButNoLongerReachTheLlm() {
        Instant longAgo = Instant.now().minus(Duration.parse(StubbedLlmProfile.CONTEXT_MAX_AGE)).minus(Duration.ofHours(1));
        List<Message> history = List.of(new Message.User("old-u", "Plan a trip to Lisbon"),
                new Message.Assistant("old-a", "Which dates?", null),
                new Message.User("recent-u", "Next week"), new Message.Assistant("recent-a", "Booked.", null));
        String threadId = "thread-" + UUID.randomUUID();
        store.commit(new ThreadCommit(new StoredThread(threadId, Caller.ANONYMOUS.owner(), "notebook",
                RunRequests.parse("{}"), history, new ThreadMeta(Map.of("old-u", longAgo, "old-a", longAgo,
                "recent-u", Instant.now(), "recent-a", Instant.now()), List.of(), List.of(), null, null), 0,
                Instant.EPOCH, Instant.EPOCH), 0, List.of())).await().atMost(Duration.ofSeconds(5));

        stub.enqueue(StubResponse.stream().text("Enjoy.").build());
        client.run("/agui/notebook", RunRequests.of(threadId, "run-later").user("Thanks").json());

        List<String> sent = new ArrayList<>();
        stub.lastRequest().get("messages").forEach(m -> sent.add(m.get("content").asText()));
        assertEquals(List.of("Plan a trip to Lisbon", "Next week", "Booked.", "Thanks"), sent.subList(sent.size() - 4,
                sent.size()), "the first user message stays, the old answer is left out");
        assertTrue(sent.stream().noneMatch("Which dates?"::equals), sent.toString());
        JsonNode thread = storedThread(threadId);
        assertEquals(List.of("user", "assistant", "user", "assistant", "user", "assistant"),
                roles(thread.get("messages")), "the stored history is kept whole");
    }

    @Test
    void theClientsStateIsLaidOverTheStoredState() {
        stub.enqueue(StubResponse.stream().toolCall("c1", "add_note", "{\"text\":\"a\"}").build());
        stub.enqueue(StubResponse.stream().text("ok").build());
        RunRequests first = RunRequests.fresh().user("note a");
        first.body().set("state", RunRequests.parse("{\"title\":\"Old\"}"));
        client.run("/agui/notebook", first.json());

        stub.enqueue(StubResponse.stream().text("ok").build());
        RunRequests second = RunRequests.of(first.threadId(), "run-2").user("renamed it");
        second.body().set("state", RunRequests.parse("{\"title\":\"New\"}"));
        SseClient.Stream stream = client.run("/agui/notebook", second.json());

        JsonNode baseline = stream.ofType("STATE_SNAPSHOT").get(0).get("snapshot");
        assertEquals(RunRequests.parse("{\"title\":\"New\",\"notes\":[\"a\"]}"), baseline,
                "the client's edit wins, what it did not send is kept");
    }

    @Test
    void aSecondRunOnABusyThreadIsRefusedWith409() {
        stub.enqueue(StubResponse.stream().text("thinking", "...").stallAfter(2).build());
        RunRequests first = RunRequests.fresh().user("long task");
        CompletableFuture<SseClient.Stream> running = CompletableFuture.supplyAsync(
                () -> client.run("/agui/notebook", first.json()));
        // The first run holds the thread from before its stream opens; wait until the stub has its request.
        awaitStubRequests(1);

        HttpResponse<String> second = client.post("/agui/notebook",
                RunRequests.of(first.threadId(), "run-2").multitask("reject").user("me too").json(),
                "Content-Type", "application/json", "Accept", "text/event-stream");

        assertEquals(409, second.statusCode());
        assertEquals("thread_busy", RunRequests.parse(second.body()).get("code").asText());
        assertEquals("llm_idle_timeout", running.join().last().get("code").asText());
        stub.enqueue(StubResponse.stream().text("free again").build());
        SseClient.Stream after = client.run("/agui/notebook", RunRequests.of(first.threadId(), "run-3").user("now?").json());
        assertEquals("RUN_FINISHED", after.last().get("type").asText(), "the thread is released when a run ends");
    }

    @Test
    void aFailedRunKeepsWhatItCompletedAndHowItEnded() {
        stub.enqueue(StubResponse.stream().toolCall("c1", "add_note", "{\"text\":\"milk\"}").build());
        stub.enqueue(StubResponse.error(500, "{}"));
        RunRequests request = RunRequests.fresh().user("remember milk");

        SseClient.Stream stream = client.run("/agui/notebook", request.json());

        assertEquals("RUN_ERROR", stream.last().get("type").asText());
        JsonNode thread = storedThread(request.threadId());
        // the tool really ran: its round is kept; the failed answer after it is not
        assertEquals(List.of("user", "assistant", "tool"), roles(thread.get("messages")));
        assertEquals(RunRequests.parse("{\"notes\":[\"milk\"]}").get("notes"), thread.at("/state/notes"));
        assertEquals(stream.last().get("code").asText(), thread.at("/lastRun/outcome").asText());
        assertTrue(thread.path("activeRun").isMissingNode(), thread.toString());
    }

    @Test
    void theThreadApiListsAndDeletes() {
        stub.setDefault(StubResponse.stream().text("ok").build());
        RunRequests older = RunRequests.fresh().user("one");
        RunRequests newer = RunRequests.fresh().user("two");
        client.run("/agui", older.json());
        client.run("/agui", newer.json());

        JsonNode page = RunRequests.parse(given().get("/threads?limit=100").then().statusCode(200).extract().asString());
        List<String> ids = page.get("threads").findValuesAsText("threadId");
        assertTrue(ids.indexOf(newer.threadId()) < ids.indexOf(older.threadId()), "newest first: " + ids);
        assertTrue(page.get("threads").get(0).get("messages") == null, "listings carry no messages");
        given().get("/threads?limit=1000").then().statusCode(400);

        given().delete("/threads/" + older.threadId()).then().statusCode(204);
        given().get("/threads/" + older.threadId()).then().statusCode(404);
        given().delete("/threads/" + older.threadId()).then().statusCode(404);
    }

    private void awaitStubRequests(int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (stub.requests().size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the stub never received the first run's request");
            }
            Thread.onSpinWait();
        }
    }

    private static List<String> roles(JsonNode messages) {
        return messages.findValuesAsText("role");
    }
}
