package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StoreProfiles;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * With API keys configured, every thread belongs to a user: without a key nothing runs or reads, and the same thread id
 * is another thread for another user, so an id tells nothing of anyone else's.
 */
@QuarkusTest
@TestProfile(StoreProfiles.Users.Memory.class)
class ThreadOwnershipTest extends StubbedLlmTestBase {

    private HttpResponse<String> run(String key, RunRequests request) {
        return client.post("/agui", request.json(), "Content-Type", "application/json", "Accept", "text/event-stream",
                "Authorization", "Bearer " + key);
    }

    @Test
    void withoutAValidKeyNothingRunsOrReads() {
        HttpResponse<String> noKey = client.post("/agui", RunRequests.fresh().user("hi").json(),
                "Content-Type", "application/json", "Accept", "text/event-stream");
        assertEquals(401, noKey.statusCode());
        assertEquals("unauthorized", RunRequests.parse(noKey.body()).get("code").asText());
        assertEquals(401, run("wrong-key", RunRequests.fresh().user("hi")).statusCode());
        given().get("/threads").then().statusCode(401);
        given().header("Authorization", "Bearer wrong").get("/threads").then().statusCode(401);
        given().get("/agui/agents").then().statusCode(401).body("code", equalTo("unauthorized"));
        given().header("Authorization", "Bearer wrong").get("/agui/agents").then().statusCode(401);
        given().get("/agui/chat/capabilities").then().statusCode(401).body("code", equalTo("unauthorized"));
        given().header("Authorization", "Bearer alice-key").get("/agui/chat/capabilities").then().statusCode(200)
                .body("identity.name", equalTo("chat"));
        assertEquals(0, stub.requests().size(), "nothing reached the LLM");
    }

    @Test
    void aThreadIdIsAnotherThreadForAnotherUser() {
        stub.setDefault(StubResponse.stream().text("ok").build());
        RunRequests alices = RunRequests.fresh().user("my secret plan");
        assertEquals(200, run("alice-key", alices).statusCode());
        String path = "/threads/" + alices.threadId();

        given().header("Authorization", "Bearer bob-key").get(path).then().statusCode(404);
        given().header("Authorization", "Bearer bob-key").delete(path).then().statusCode(404);
        HttpResponse<String> bobsRun = run("bob-key", RunRequests.of(alices.threadId(), "bob-run").user("hi"));
        assertEquals(200, bobsRun.statusCode(), "the id is bob's to use too: " + bobsRun.body());
        given().header("Authorization", "Bearer bob-key").get(path).then().statusCode(200)
                .body("messages.content", equalTo(List.of("hi", "ok")));
        String bobsList = given().header("Authorization", "Bearer bob-key").get("/threads").then().statusCode(200)
                .extract().asString();
        assertEquals(1, RunRequests.parse(bobsList).get("threads").size(), "his own thread of that id: " + bobsList);

        given().header("Authorization", "Bearer alice-key").get(path).then().statusCode(200)
                .body("messages.content", equalTo(List.of("my secret plan", "ok")));
        assertEquals(200, run("alice-key", RunRequests.of(alices.threadId(), "alice-2").user("again")).statusCode());
        given().header("Authorization", "Bearer alice-key").delete(path).then().statusCode(204);
        given().header("Authorization", "Bearer bob-key").get(path).then().statusCode(200)
                .body("messages.content", equalTo(List.of("hi", "ok")));
    }

    @Test
    void aUserWithAKeySeesTheAgentsButNotWhereTheModelIs() {
        given().header("Authorization", "Bearer bob-key").get("/agui/agents").then().statusCode(200)
                .body("agents.name", hasItem("chat"))
                .body("model.kind", equalTo("openai-compatible"))
                .body("model.model", equalTo("gpt-test"))
                .body("model", not(hasKey("baseUrl")))
                .body(not(containsString(stub.baseUrl())));
    }

    private static io.restassured.specification.RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType("application/json");
    }

    /**
     * Other classes on this profile leave threads of alice's behind (the store is the server's): every listing here
     * is narrowed to this test's two threads by a metadata value of its own, {@code suite}.
     */
    @Test
    void aThreadIsNamedArchivedAndGivenMetadataByItsOwnerOnlyAndFoundByThem() {
        stub.setDefault(StubResponse.stream().text("ok").build());
        String suite = "s" + UUID.randomUUID().toString().substring(0, 8);
        String mine = "&metadata.suite=" + suite;
        RunRequests soup = RunRequests.fresh().user("soup");
        RunRequests bread = RunRequests.fresh().user("bread");
        assertEquals(200, run("alice-key", soup).statusCode());
        assertEquals(200, run("alice-key", bread).statusCode());
        as("alice-key").body("{\"metadata\":{\"suite\":\"" + suite + "\"}}").patch("/threads/" + bread.threadId())
                .then().statusCode(200);
        String path = "/threads/" + soup.threadId();
        int version = as("alice-key").get(path).then().extract().path("version");

        as("alice-key").body("{\"name\":\"  Soup " + suite + " \",\"metadata\":{\"project\":\"kitchen\",\"n\":3,"
                        + "\"suite\":\"" + suite + "\"}}")
                .patch(path).then().statusCode(200).body("name", equalTo("Soup " + suite))
                .body("archived", equalTo(false)).body("metadata.project", equalTo("kitchen"))
                .body("version", equalTo(version)).body("messages.content", equalTo(List.of("soup", "ok")));
        as("bob-key").body("{\"name\":\"mine now\"}").patch(path).then().statusCode(404)
                .body("code", equalTo("thread_not_found"));
        as("alice-key").body("{\"metadata\":{\"n\":null,\"tag\":\"red\"}}").patch(path).then().statusCode(200)
                .body("metadata", equalTo(java.util.Map.of("project", "kitchen", "tag", "red", "suite", suite)))
                .body("name", equalTo("Soup " + suite));

        as("alice-key").queryParam("q", ("soup " + suite).toUpperCase(java.util.Locale.ROOT)).get("/threads")
                .then().statusCode(200)
                .body("threads.threadId", equalTo(List.of(soup.threadId())))
                .body("threads[0].name", equalTo("Soup " + suite))
                .body("threads[0].lastRun.outcome", equalTo("success"));
        as("alice-key").get("/threads?metadata.project=kitchen&metadata.tag=red" + mine).then().statusCode(200)
                .body("threads.threadId", equalTo(List.of(soup.threadId())));
        as("alice-key").get("/threads?metadata.project=garden" + mine).then().statusCode(200)
                .body("threads", equalTo(List.of()));
        as("alice-key").get("/threads?agent=recipe" + mine).then().statusCode(200).body("threads", equalTo(List.of()));
        as("bob-key").get("/threads?q=" + suite).then().statusCode(200).body("threads", equalTo(List.of()));

        as("alice-key").body("{\"archived\":true}").patch(path).then().statusCode(200).body("archived", equalTo(true));
        as("alice-key").get("/threads?" + mine.substring(1)).then().statusCode(200)
                .body("threads.threadId", equalTo(List.of(bread.threadId())));
        as("alice-key").get("/threads?archived=true" + mine).then().statusCode(200)
                .body("threads.threadId", equalTo(List.of(soup.threadId())));
        String next = as("alice-key").get("/threads?archived=all&limit=1" + mine).then().statusCode(200)
                .body("threads.threadId", equalTo(List.of(bread.threadId())))
                .extract().path("nextCursor");
        as("alice-key").get("/threads?archived=all&limit=1&cursor=" + next + mine).then().statusCode(200)
                .body("threads.threadId", equalTo(List.of(soup.threadId())));
        as("alice-key").get(path).then().statusCode(200).body("archived", equalTo(true))
                .body("name", equalTo("Soup " + suite));

        as("alice-key").get("/threads?archived=maybe").then().statusCode(400).body("code", equalTo("invalid_filter"));
        as("alice-key").body("{\"name\":42}").patch(path).then().statusCode(400)
                .body("code", equalTo("invalid_request"));
        as("alice-key").body("{\"metadata\":[1]}").patch(path).then().statusCode(400);
        as("alice-key").body("{\"metadata\":{\"big\":\"" + "x".repeat(5000) + "\"}}").patch(path).then()
                .statusCode(413).body("code", equalTo("metadata_too_large"));
        as("alice-key").body("{\"name\":null}").patch(path).then().statusCode(200).body("$", not(hasKey("name")))
                .body("metadata.project", equalTo("kitchen"));
        as("alice-key").body("{}").patch("/threads/no-such-thread").then().statusCode(404);
        given().contentType("application/json").body("{}").patch(path).then().statusCode(401);
    }

    /** A rename while a run goes on: the run commits its end over it, and neither is lost. */
    @Test
    void aRenameDuringARunAndTheRunsCommitAreBothKept() throws Exception {
        stub.setDefault(StubResponse.stream().text("ok").build());
        RunRequests first = RunRequests.fresh().user("one");
        assertEquals(200, run("alice-key", first).statusCode());
        stub.enqueue(StubResponse.stream().text("stalls").stallAfter(1).build());
        java.util.concurrent.CompletableFuture<HttpResponse<String>> second = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> run("alice-key", RunRequests.of(first.threadId(), "run-2").user("two")));
        assertEquals(true, stub.awaitRequests(2, java.time.Duration.ofSeconds(10)), "the second run is under way");

        String path = "/threads/" + first.threadId();
        as("alice-key").body("{\"name\":\"Renamed mid-run\"}").patch(path).then().statusCode(200);
        assertEquals(200, second.get(20, java.util.concurrent.TimeUnit.SECONDS).statusCode());

        as("alice-key").get(path).then().statusCode(200).body("name", equalTo("Renamed mid-run"))
                .body("messages.content", hasItem("two")).body("lastRun.runId", equalTo("run-2"));
    }
}
