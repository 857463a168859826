package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.aguistate.testing.DefaultsProfile;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With {@code quarkus.management.enabled=true} (a build-time setting) health, metrics and OpenAPI leave the public
 * port for a management port of their own, as docs/operations.md recommends for production.
 */
@QuarkusTest
@TestProfile(DefaultsProfile.class)
class ManagementInterfaceTest {

    // Relative to the management root path, /q.
    @TestHTTPResource(value = "health/ready", management = true)
    URL readiness;

    @TestHTTPResource(value = "metrics", management = true)
    URL metrics;

    @TestHTTPResource(value = "openapi", management = true)
    URL openApi;

    @Test
    void healthMetricsAndOpenApiAnswerOnTheManagementPort() {
        given().get(readiness).then().statusCode(200).body("status", equalTo("UP"));
        given().get(metrics).then().statusCode(200).body(containsString("jvm_memory_used_bytes"));
        given().get(openApi).then().statusCode(200).body(containsString("/agui/agents"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/q/health/ready", "/q/metrics", "/q/openapi"})
    void thePublicPortDoesNotServeThem(String path) {
        given().get(path).then().statusCode(404).body("code", equalTo("not_found"));
    }

    @Test
    void thePublicEndpointsStayOnThePublicPort() {
        given().get("/agui/agents").then().statusCode(200).body("agents.name", org.hamcrest.Matchers.hasItem("chat"));
    }
}
