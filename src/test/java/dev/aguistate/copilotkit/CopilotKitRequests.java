package dev.aguistate.copilotkit;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StoreProfiles;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.restassured.specification.RequestSpecification;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

/** Requests to the CopilotKit endpoints, as users alice and bob, under a base path written with a trailing slash. */
abstract class CopilotKitRequests extends StubbedLlmTestBase {

    static final String BASE = StoreProfiles.Users.COPILOTKIT;
    static final String[] ALICE = {"Authorization", "Bearer alice-key"};
    static final String[] JSON_ALICE = {"Content-Type", "application/json", "Authorization", "Bearer alice-key"};

    static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key);
    }

    static ObjectNode envelope(String method, Map<String, String> params, JsonNode body) {
        ObjectNode call = RunRequests.JSON.createObjectNode().put("method", method);
        ObjectNode named = call.putObject("params");
        params.forEach(named::put);
        if (body != null) {
            call.set("body", body);
        }
        return call;
    }

    HttpResponse<String> post(String path, String body, String... headers) {
        return client.post(path, body, headers);
    }

    static JsonNode error(HttpResponse<String> response, int status, String code) {
        assertEquals(status, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        JsonNode body = RunRequests.parse(response.body());
        assertEquals(code, body.get("code").asText(), response.body());
        return body;
    }

    List<JsonNode> run(String path, String body) {
        try (SseClient.LiveStream stream = client.open(path, body, ALICE)) {
            assertEquals(200, stream.status());
            return stream.readToEnd();
        }
    }
}
