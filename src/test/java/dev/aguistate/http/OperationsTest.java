package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Agents listing, health, metrics, OpenAPI and CORS: what operators and browser pages rely on. */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class OperationsTest extends StubbedLlmTestBase {

    @Test
    void agentsAreListedWithTheirToolsAndTheModel() {
        given().get("/agui/agents").then().statusCode(200)
                .body("agents.find { it.name == 'chat' }.isDefault", equalTo(true))
                .body("agents.find { it.name == 'chat' }.tools", hasItem("get_weather"))
                .body("agents.find { it.name == 'chat' }.hasState", equalTo(true))
                .body("agents.find { it.name == 'document' }.confirmedTools", equalTo(List.of("write_document")))
                .body("agents.find { it.name == 'recipe' }.confirmedTools", equalTo(List.of()))
                .body("model.kind", equalTo("openai-compatible"))
                .body("model.model", equalTo("gpt-test"))
                .body("model", not(hasKey("baseUrl")))
                .body(not(containsString(stub.baseUrl())))
                .body(not(containsString("test-key")));
    }

    @Test
    void readinessSaysTheLlmIsConfigured() {
        given().get("/q/health/ready").then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'llm' }.data.llmConfigured", equalTo(true))
                .body("checks.find { it.name == 'llm' }.data.kind", equalTo("openai-compatible"));
    }

    @Test
    void metricsCountRunsErrorsEventsAndTimeToFirstToken() {
        String rateLimited = "agui_run_errors_total{code=\"llm_rate_limited\"}";
        double before = value(given().get("/q/metrics").then().extract().asString(), rateLimited);
        stub.enqueue(StubResponse.stream().text("a", "b").build());
        // asking for longer than agui.llm.max-retry-wait: not retried, the run fails at once
        stub.enqueue(StubResponse.error(429, "{}").withHeader("Retry-After", "3600"));
        client.run("/agui", RunRequests.fresh().user("one").json());
        client.run("/agui", RunRequests.fresh().user("two").json());

        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertContains(metrics, "agui_runs_active ");
        assertContains(metrics, "agui_runs_total{agent=\"chat\",outcome=\"success\"}");
        assertContains(metrics, "agui_runs_total{agent=\"chat\",outcome=\"error\"}");
        assertEquals(before + 1, value(metrics, rateLimited), "this test's run counted, whatever ran before");
        assertContains(metrics, "agui_events_sent_total{type=\"TEXT_MESSAGE_CONTENT\"}");
        assertContains(metrics, "agui_llm_time_to_first_token_seconds_count");
    }

    @Test
    void openApiDescribesTheNonStreamingEndpoints() {
        given().get("/q/openapi?format=json").then().statusCode(200)
                .body("paths.'/agui/agents'.get", not(nullValue()));
    }

    @Test
    void anAllowedOriginMayCallTheRunEndpoint() {
        given().header("Origin", "http://allowed.example")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type")
                .options("/agui")
                .then().statusCode(200)
                .header("Access-Control-Allow-Origin", "http://allowed.example");
        stub.enqueue(StubResponse.stream().text("hi").build());
        given().header("Origin", "http://allowed.example").contentType("application/json").accept("text/event-stream")
                .body(RunRequests.fresh().user("hi").json())
                .post("/agui")
                .then().statusCode(200)
                .header("Access-Control-Allow-Origin", "http://allowed.example");
    }

    @Test
    void anOriginNotAllowedGetsNoCorsGrant() {
        given().header("Origin", "http://evil.example")
                .header("Access-Control-Request-Method", "POST")
                .options("/agui")
                .then()
                .header("Access-Control-Allow-Origin", nullValue());
    }

    /** A counter's value in the Prometheus text, 0 when it is not there yet. */
    private static double value(String metrics, String series) {
        return metrics.lines().filter(line -> line.startsWith(series + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim())).orElse(0.0);
    }

    private static void assertContains(String text, String expected) {
        if (!text.contains(expected)) {
            throw new AssertionError("metrics lack " + expected);
        }
    }
}
