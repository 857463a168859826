package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.session.Caller;
import dev.aguistate.store.ScopedState;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadCommit;
import dev.aguistate.store.ThreadStore;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * user: keys follow the user across threads, app: keys are everyone's and server-owned, keys an agent declares
 * server-owned stay the server's, temp: keys never leave a run.
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class StateScopesRunTest extends StubbedLlmTestBase {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    ThreadStore store;

    /**
     * The anonymous user's and the app's scopes are every thread's on this server: each test leaves them empty, as
     * it found them, so that what the other classes of the profile see does not depend on whether this one ran
     * first. They are emptied as a run's commit writes them, with a thread of its own, deleted after.
     */
    @AfterEach
    void emptyTheSharedScopes() {
        ScopedState user = store.loadScope(ScopedState.userScope(Caller.ANONYMOUS.owner())).await().atMost(WAIT);
        ScopedState app = store.loadScope(Caller.ANONYMOUS.appScope()).await().atMost(WAIT);
        ObjectNode empty = JsonNodeFactory.instance.objectNode();
        StoredThread carrier = new StoredThread("scope-reset-" + UUID.randomUUID(), Caller.ANONYMOUS.owner(),
                "scoped", empty, List.of(), null, 0, Instant.EPOCH, Instant.EPOCH);
        store.commit(new ThreadCommit(carrier, 0, List.of(new ThreadCommit.ScopeWrite(user.scope(), empty,
                user.version()), new ThreadCommit.ScopeWrite(app.scope(), empty, app.version())))).await().atMost(WAIT);
        store.delete(carrier.key()).await().atMost(WAIT);
    }

    private SseClient.Stream setThenRun(String tool, String valueJson, RunRequests request) {
        stub.enqueue(StubResponse.stream().toolCall("c-" + UUID.randomUUID(), tool, "{\"value\":" + valueJson + "}").build());
        stub.enqueue(StubResponse.stream().text("ok").build());
        SseClient.Stream stream = client.run("/agui/scoped", request.json());
        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        return stream;
    }

    private static RunRequests withState(String state) {
        RunRequests request = RunRequests.fresh().user("go");
        request.body().set("state", RunRequests.parse(state));
        return request;
    }

    @Test
    void userKeysFollowTheUserIntoANewThread() {
        String lang = "\"fr-" + UUID.randomUUID() + "\"";
        setThenRun("set_lang", lang, withState("{}"));

        stub.enqueue(StubResponse.stream().text("bonjour").build());
        RunRequests other = withState("{}");
        SseClient.Stream stream = client.run("/agui/scoped", other.json());

        JsonNode baseline = stream.ofType("STATE_SNAPSHOT").get(0).get("snapshot");
        assertEquals(RunRequests.parse("{\"v\":" + lang + "}").get("v"), baseline.get("user:lang"));
        JsonNode stored = storedThread(other.threadId()).get("state");
        assertFalse(stored.has("user:lang"), "the thread stores only its own keys: " + stored);
    }

    @Test
    void tempKeysAreNeitherSentNorStored() {
        RunRequests request = withState("{\"note\":\"n\"}");
        SseClient.Stream stream = setThenRun("set_scratch", "\"secret working data\"", request);

        assertFalse(stream.raw().contains("temp:scratch"), "temp keys never reach the client");
        assertTrue(stream.ofType("STATE_SNAPSHOT").isEmpty(), "nothing the client sees changed");
        String stored = given().get("/threads/" + request.threadId()).then().statusCode(200).extract().asString();
        assertFalse(stored.contains("temp:scratch"), stored);
    }

    @Test
    void appKeysAreSharedAndTheClientCannotChangeThem() {
        String banner = "\"sale-" + UUID.randomUUID() + "\"";
        setThenRun("set_banner", banner, withState("{}"));

        stub.enqueue(StubResponse.stream().text("ok").build());
        RunRequests tampering = withState("{\"app:banner\":\"hacked\",\"note\":\"mine\"}");
        SseClient.Stream stream = client.run("/agui/scoped", tampering.json());

        JsonNode baseline = stream.ofType("STATE_SNAPSHOT").get(0).get("snapshot");
        assertEquals(RunRequests.parse("{\"v\":" + banner + "}").get("v"), baseline.get("app:banner"),
                "the client's edit of a server-owned key is ignored and corrected");
        assertEquals("mine", baseline.get("note").asText(), "its own keys are kept");
    }

    @Test
    void declaredServerOwnedKeysChangeOnlyThroughTheAgentsTools() {
        RunRequests first = withState("{\"note\":\"n\"}");
        setThenRun("set_plan", "\"approved plan\"", first);

        stub.enqueue(StubResponse.stream().text("ok").build());
        RunRequests tampering = RunRequests.of(first.threadId(), "run-tamper").user("go");
        tampering.body().set("state", RunRequests.parse("{\"plan\":\"hacked\",\"note\":\"edited\"}"));
        SseClient.Stream stream = client.run("/agui/scoped", tampering.json());
        EventStreamVerifier.verify(stream.events(), tampering.threadId(), tampering.runId());

        JsonNode baseline = stream.ofType("STATE_SNAPSHOT").get(0).get("snapshot");
        assertEquals("approved plan", baseline.get("plan").asText(), "the client's edit is ignored and corrected");
        assertEquals("edited", baseline.get("note").asText(), "the client's edit of its own key is kept");
        JsonNode stored = storedThread(first.threadId()).get("state");
        assertEquals("approved plan", stored.get("plan").asText(), stored.toString());
        assertEquals("edited", stored.get("note").asText(), stored.toString());
    }
}
