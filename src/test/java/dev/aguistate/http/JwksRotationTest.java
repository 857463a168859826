package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.testing.AgentsFileProfile;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.testing.TokenIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Tokens verified against the issuer's key set, fetched over HTTP from a local JWKS endpoint: when the issuer
 * rotates its key, a token naming the new key id makes the server fetch the set again, and tokens of the retired key
 * stop working.
 */
@QuarkusTest
@TestProfile(AgentsFileProfile.class)
class JwksRotationTest extends StubbedLlmTestBase {

    @Test
    void aRotatedKeyIsFetchedAndTheRetiredOneRefused() throws InterruptedException {
        TokenIssuer issuer = TokenIssuer.current();
        String before = issuer.token("alice", null);
        given().header("Authorization", "Bearer " + before).get("/agui/agents").then().statusCode(200);
        int fetchesBefore = issuer.jwksFetches();
        assertTrue(fetchesBefore >= 1, "the key set was fetched");

        issuer.awaitKeySetOlderThan(Duration.ofMillis(300)); // an issuer rotates later than that (seen flaky in CI)
        issuer.rotate();
        String after = issuer.token("alice", null);
        stub.setDefault(StubResponse.stream().text("hi").build());
        RunRequests request = RunRequests.fresh().user("hi");
        SseClient.Stream stream = client.run("/agui/chat", request.json(), "Authorization", "Bearer " + after);
        assertEquals(200, stream.response().statusCode(), stream.raw());
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
        assertTrue(issuer.jwksFetches() > fetchesBefore, "the unknown key id made the server fetch the set again");

        given().header("Authorization", "Bearer " + before).get("/agui/agents").then().statusCode(401)
                .body("code", equalTo("unauthorized"));
        given().header("Authorization", "Bearer " + after).get("/threads/" + request.threadId()).then()
                .statusCode(200);
    }
}
