package dev.aguistate.copilotkit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.StubResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CopilotKit's thread endpoints on each thread store (memory, Redis, PostgreSQL): list (by agent, paged), messages,
 * state and delete, each only for the caller's threads; what needs CopilotKit's Intelligence platform is 422.
 */
abstract class CopilotKitThreadsContract extends CopilotKitRequests {

    @Test
    void threadEndpointsListReadAndDeleteOnlyTheCallersThreads() {
        stub.setDefault(StubResponse.stream().text("ok").build());
        RunRequests first = RunRequests.fresh().user("one");
        RunRequests second = RunRequests.fresh().user("two");
        run(BASE + "/agent/chat/run", first.json());
        run(BASE + "/agent/chat/run", second.json());

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
        as("alice-key").contentType("application/json").body("{\"agentId\":\"chat\",\"name\":\"x\"}")
                .patch(thread).then().statusCode(422).body("code", equalTo("not_supported"));
        as("alice-key").get(thread).then().statusCode(405);
        as("alice-key").post(thread + "/archive").then().statusCode(422).body("code", equalTo("not_supported"));

        JsonNode listedByEnvelope = RunRequests.parse(post(BASE, envelope("resource/request",
                Map.of("path", "/threads?agentId=chat", "httpMethod", "GET"), null).toString(),
                "Content-Type", "application/json", ALICE[0], ALICE[1]).body());
        assertEquals(second.threadId(), listedByEnvelope.at("/threads/0/id").asText());

        as("bob-key").delete(thread).then().statusCode(404);
        as("alice-key").delete(thread).then().statusCode(200).body("deleted", equalTo(true))
                .body("threadId", equalTo(first.threadId()));
        as("alice-key").get(thread + "/messages").then().statusCode(404);
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
