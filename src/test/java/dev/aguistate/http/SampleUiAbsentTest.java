package dev.aguistate.http;

import static io.restassured.RestAssured.given;

import dev.aguistate.testing.ScriptedDemoProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/** Without {@code agui.sample-ui.dir} the server serves no page at {@code /} (profile shared with the conformance test). */
@QuarkusTest
@TestProfile(ScriptedDemoProfile.class)
class SampleUiAbsentTest {

    @Test
    void nothingIsServedAtTheRootByDefault() {
        given().get("/").then().statusCode(404);
    }
}
