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
}
