package dev.aguistate.copilotkit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.aguistate.testing.ScriptedDemoProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code agui.copilotkit.enabled=false}: the CopilotKit endpoints are not there; the AG-UI ones are. */
@QuarkusTest
@TestProfile(CopilotKitDisabledTest.Disabled.class)
class CopilotKitDisabledTest {

    public static class Disabled extends ScriptedDemoProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("agui.copilotkit.enabled", "false");
            return overrides;
        }
    }

    @Test
    void theRoutesAnswerNotFound() {
        given().get("/copilotkit/info").then().statusCode(404).body("code", equalTo("not_found"));
        given().contentType("application/json").body("{\"method\":\"info\"}").post("/copilotkit")
                .then().statusCode(404).body("code", equalTo("not_found"));
        given().get("/agui/agents").then().statusCode(200);
    }
}
