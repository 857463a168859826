package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.testing.DefaultsProfile;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code agui.sample-ui.dir}: the built sample UI at {@code /}, without shadowing the API. */
@QuarkusTest
@TestProfile(DefaultsProfile.class)
class SampleUiRouteTest {

    /** A stand-in for frontend-sample/dist: an index page, an asset, a hidden file. */
    @BeforeEach
    void built() throws IOException {
        Path dir = DefaultsProfile.SAMPLE_UI;
        Files.createDirectories(dir.resolve("assets"));
        Files.writeString(dir.resolve("index.html"), "<!doctype html><title>sample ui marker</title>");
        Files.writeString(dir.resolve("assets/app.js"), "console.log('sample asset');");
        Files.writeString(dir.resolve(".env"), "SECRET=1");
    }

    @Test
    void theIndexPageAndAssetsAreServedAtTheRoot() {
        given().get("/").then().statusCode(200)
                .contentType(containsString("text/html"))
                .body(containsString("sample ui marker"));
        given().get("/assets/app.js").then().statusCode(200)
                .contentType(containsString("javascript"))
                .body(containsString("sample asset"));
    }

    @Test
    void hiddenFilesAndPathsOutsideTheDirectoryAreNotServed() {
        given().get("/.env").then().statusCode(404);
        given().urlEncodingEnabled(false).get("/assets/..%2F..%2F..%2Fetc%2Fpasswd").then().statusCode(404);
    }

    @Test
    void theApiIsStillReachedUnderTheStaticRoute() {
        given().get("/threads/no-such-thread").then().statusCode(404).body("code", equalTo("thread_not_found"));
        given().get("/agui/agents").then().statusCode(200).body("agents.find { it.name == 'chat' }.isDefault",
                equalTo(true));
        SseClient.Stream run = SseClient.forTestServer().run("/agui", RunRequests.fresh().user("hello").json());
        assertEquals(200, run.response().statusCode());
        assertEquals("RUN_FINISHED", run.last().path("type").asText());
    }
}
