package dev.aguistate.testing;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the tests that run the server against the {@link OpenAiStub} (annotate the subclass with
 * {@code @QuarkusTest @TestProfile(StubbedLlmProfile.class)}): a client for the test port and a stub with no
 * leftovers from the previous test.
 */
public abstract class StubbedLlmTestBase {

    protected final SseClient client = SseClient.forTestServer();
    protected OpenAiStub stub;

    @BeforeEach
    void resetStub() {
        stub = OpenAiStubResource.stub();
        stub.reset();
    }

    /** The thread as {@code GET /threads/{id}} shows it to the (anonymous) caller; it must exist. */
    protected static JsonNode storedThread(String threadId) {
        return RunRequests.parse(given().get("/threads/" + threadId).then().statusCode(200).extract().asString());
    }
}
