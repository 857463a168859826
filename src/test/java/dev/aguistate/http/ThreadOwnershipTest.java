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
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** With API keys configured, every thread belongs to a user; others get 401 or a 404 that reveals nothing. */
@QuarkusTest
@TestProfile(ThreadOwnershipTest.WithApiKeys.class)
class ThreadOwnershipTest extends StubbedLlmTestBase {

    public static class WithApiKeys extends StubbedLlmProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("agui.auth.api-keys.alice-key", "alice");
            overrides.put("agui.auth.api-keys.bob-key", "bob");
            return overrides;
        }
    }

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
    void oneUserCannotReadContinueListOrDeleteAnothersThread() {
        stub.setDefault(StubResponse.stream().text("ok").build());
        RunRequests alices = RunRequests.fresh().user("my secret plan");
        assertEquals(200, run("alice-key", alices).statusCode());
        String path = "/threads/" + alices.threadId();

        given().header("Authorization", "Bearer bob-key").get(path).then().statusCode(404);
        given().header("Authorization", "Bearer bob-key").delete(path).then().statusCode(404);
        HttpResponse<String> bobContinues = run("bob-key", RunRequests.of(alices.threadId(), "bob-run").user("hi"));
        assertEquals(404, bobContinues.statusCode());
        assertEquals("thread_not_found", RunRequests.parse(bobContinues.body()).get("code").asText());
        String bobsList = given().header("Authorization", "Bearer bob-key").get("/threads").then().statusCode(200)
                .extract().asString();
        assertEquals(false, bobsList.contains(alices.threadId()));

        given().header("Authorization", "Bearer alice-key").get(path).then().statusCode(200);
        assertEquals(200, run("alice-key", RunRequests.of(alices.threadId(), "alice-2").user("again")).statusCode());
        given().header("Authorization", "Bearer alice-key").delete(path).then().statusCode(204);
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
