package dev.aguistate.copilotkit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.aguistate.testing.DefaultsProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/** {@code agui.copilotkit.enabled=false}: the CopilotKit endpoints are not there; the AG-UI ones are. */
@QuarkusTest
@TestProfile(DefaultsProfile.class)
class CopilotKitDisabledTest {

    @Test
    void theRoutesAnswerNotFound() {
        given().get("/copilotkit/info").then().statusCode(404).body("code", equalTo("not_found"));
        given().contentType("application/json").body("{\"method\":\"info\"}").post("/copilotkit")
                .then().statusCode(404).body("code", equalTo("not_found"));
        given().get("/agui/agents").then().statusCode(200);
    }
}
