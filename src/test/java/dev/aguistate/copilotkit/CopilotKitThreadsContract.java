package dev.aguistate.copilotkit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.StubResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CopilotKit's thread endpoints on each thread store (memory, Redis, PostgreSQL): list (by agent, paged), messages,
 * state, rename, archive and delete, each only for the caller's threads; what needs CopilotKit's Intelligence
 * platform (realtime, raw events, clearing all) is 422.
 */
abstract class CopilotKitThreadsContract extends CopilotKitRequests {

    /** Two threads of alice's with the chat agent, "one" then "two", each answered "ok". */
    private List<RunRequests> aliceRanTwoChats() {
        stub.setDefault(StubResponse.stream().text("ok").build());
        List<RunRequests> threads = List.of(RunRequests.fresh().user("one"), RunRequests.fresh().user("two"));
        threads.forEach(thread -> run(BASE + "/agent/chat/run", thread.json()));
        return threads;
    }

    @Test
    void threadEndpointsListReadAndDeleteOnlyTheCallersThreads() {
        List<RunRequests> threads = aliceRanTwoChats();
        RunRequests first = threads.get(0);
        RunRequests second = threads.get(1);

        JsonNode page = RunRequests.parse(as("alice-key").get(BASE + "/threads?agentId=chat&limit=1")
                .then().statusCode(200).extract().asString());
        assertEquals(1, page.get("threads").size());
        JsonNode newest = page.get("threads").get(0);
        assertEquals(second.threadId(), newest.get("id").asText(), "most recently updated first");
        assertEquals("chat", newest.get("agentId").asText());
        assertEquals("alice", newest.get("createdById").asText());
        JsonNode next = RunRequests.parse(as("alice-key").get(BASE + "/threads?agentId=chat&limit=1&cursor="
                + page.get("nextCursor").asText()).then().statusCode(200).extract().asString());
        assertEquals(first.threadId(), next.at("/threads/0/id").asText());
        as("alice-key").get(BASE + "/threads?agentId=recipe").then().statusCode(200)
                .body("threads.id", not(hasItem(first.threadId())));
        as("bob-key").get(BASE + "/threads").then().statusCode(200)
                .body("threads.id", not(hasItem(first.threadId())));
        as("alice-key").get(BASE + "/threads?limit=0").then().statusCode(400).body("code", equalTo("invalid_page"));
        given().get(BASE + "/threads").then().statusCode(401);

        String thread = BASE + "/threads/" + first.threadId();
        as("alice-key").get(thread + "/messages").then().statusCode(200)
                .body("messages.role", equalTo(List.of("user", "assistant")))
                .body("messages[0].content", equalTo("one")).body("messages[1].content", equalTo("ok"));
        as("alice-key").get(thread + "/state").then().statusCode(200).body("$", hasKey("state"));
        as("bob-key").get(thread + "/messages").then().statusCode(404).body("code", equalTo("thread_not_found"));
        as("alice-key").get(thread).then().statusCode(405);

        JsonNode listedByEnvelope = RunRequests.parse(post(BASE, envelope("resource/request",
                Map.of("path", "/threads?agentId=chat", "httpMethod", "GET"), null).toString(),
                "Content-Type", "application/json", ALICE[0], ALICE[1]).body());
        assertEquals(second.threadId(), listedByEnvelope.at("/threads/0/id").asText());

        as("bob-key").delete(thread).then().statusCode(404);
        as("alice-key").delete(thread).then().statusCode(200).body("deleted", equalTo(true))
                .body("threadId", equalTo(first.threadId()));
        as("alice-key").get(thread + "/messages").then().statusCode(404);
    }

    /** The requests of CopilotKit's thread store (useThreads, the threads drawer): rename, archive, unarchive. */
    @Test
    void threadsAreRenamedArchivedAndUnarchivedAsCopilotKitAsks() {
        List<RunRequests> threads = aliceRanTwoChats();
        RunRequests first = threads.get(0);
        RunRequests second = threads.get(1);
        String thread = BASE + "/threads/" + first.threadId();

        as("alice-key").contentType("application/json").body("{\"agentId\":\"chat\",\"name\":\"Soup\"}")
                .patch(thread).then().statusCode(200).body("id", equalTo(first.threadId()))
                .body("name", equalTo("Soup")).body("archived", equalTo(false));
        as("bob-key").contentType("application/json").body("{\"agentId\":\"chat\",\"name\":\"x\"}")
                .patch(thread).then().statusCode(404).body("code", equalTo("thread_not_found"));
        as("bob-key").contentType("application/json").body("{\"agentId\":\"chat\"}").post(thread + "/archive")
                .then().statusCode(404);
        as("alice-key").contentType("application/json").body("{\"agentId\":\"chat\"}").post(thread + "/archive")
                .then().statusCode(200).body("archived", equalTo(true)).body("name", equalTo("Soup"));
        as("alice-key").get(BASE + "/threads?agentId=chat").then().statusCode(200)
                .body("threads.id", not(hasItem(first.threadId()))).body("threads.id", hasItem(second.threadId()));
        as("alice-key").get(BASE + "/threads?agentId=chat&includeArchived=true").then().statusCode(200)
                .body("threads.find { it.id == '" + first.threadId() + "' }.archived", equalTo(true))
                .body("threads.find { it.id == '" + first.threadId() + "' }.name", equalTo("Soup"))
                .body("threads.find { it.id == '" + first.threadId() + "' }.lastRunAt", notNullValue());
        as("alice-key").get(thread + "/archive").then().statusCode(405);

        JsonNode unarchived = RunRequests.parse(post(BASE, envelope("resource/request",
                Map.of("path", "/threads/" + first.threadId(), "httpMethod", "PATCH"),
                RunRequests.parse("{\"agentId\":\"chat\",\"archived\":false,\"metadata\":{\"pinned\":true}}"))
                .toString(), JSON_ALICE).body());
        assertEquals(false, unarchived.get("archived").asBoolean());
        // of this test's two threads (a persistent store keeps alice's Soup of an earlier run of the suite)
        as("alice-key").get(BASE + "/threads?agentId=chat&q=sou&metadata.pinned=true").then().statusCode(200)
                .body("threads.id.findAll { it == '" + first.threadId() + "' || it == '" + second.threadId() + "' }",
                        equalTo(List.of(first.threadId())));
        as("alice-key").contentType("application/json").body("{\"name\":7}").patch(thread).then().statusCode(400)
                .body("code", equalTo("invalid_request"));
        as("alice-key").contentType("application/json").body("not json").patch(thread).then().statusCode(400);
    }

    /**
     * What no store can hold is refused at the door, alike on every store: a thread id with NUL (PostgreSQL's
     * {@code text} cannot hold it, and the thread API answered 503 "try again") is 422 on the thread API and on
     * CopilotKit's thread endpoints; a malformed percent-escape in the path the single route's {@code resource/request}
     * names is a JSON 400 (it answered 500).
     */
    @Test
    void threadIdsAndPathsNoStoreCanHoldAreRefusedAtTheDoor() {
        for (String path : List.of("/threads/%00", "/threads/%00/messages", BASE + "/threads/%00/messages",
                BASE + "/threads/%00/state")) {
            as("alice-key").urlEncodingEnabled(false).get(path).then().statusCode(422)
                    .contentType("application/json").body("code", equalTo("invalid_thread_id"));
        }
        as("alice-key").urlEncodingEnabled(false).delete("/threads/%00").then().statusCode(422)
                .body("code", equalTo("invalid_thread_id"));
        as("alice-key").urlEncodingEnabled(false).delete(BASE + "/threads/%00").then().statusCode(422)
                .body("code", equalTo("invalid_thread_id"));
        error(post(BASE, envelope("resource/request", Map.of("path", "/threads/%00/state", "httpMethod", "GET"), null)
                .toString(), JSON_ALICE), 422, "invalid_thread_id");

        error(post(BASE, envelope("resource/request", Map.of("path", "/threads/%zz/messages", "httpMethod", "GET"),
                null).toString(), JSON_ALICE), 400, "invalid_path");
        error(post(BASE, envelope("resource/request", Map.of("path", "/threads?agentId=%zz", "httpMethod", "GET"),
                null).toString(), JSON_ALICE), 400, "invalid_path");
    }
}
