package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.TokensProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import dev.aguistate.testing.TokenIssuer;
import dev.aguistate.testing.UnknownThreads;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;

/**
 * Users from signed JWTs (verified with the issuer's public key, a PEM file) alongside an API key, with a tenant
 * claim that partitions threads and the {@code app:} scope. Tokens are made and signed by the test's own
 * {@link TokenIssuer}; every endpoint is asked with each kind of bad token.
 */
@QuarkusTest
@TestProfile(TokensProfile.class)
class JwtAuthTest extends StubbedLlmTestBase {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static String bearer(String token) {
        return "Bearer " + token;
    }

    private SseClient.Stream run(String path, RunRequests request, String authorization) {
        return client.run(path, request.json(), "Authorization", authorization);
    }

    /** A request of any method; {@code headers} are name, value pairs. */
    private static HttpResponse<String> send(String method, String path, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                URI.create("http://localhost:" + SseClient.testPort() + path));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every endpoint that serves a caller, asked for {@code threadId} with the given extra headers. */
    private static Map<String, HttpResponse<String>> everyEndpoint(String threadId, String body, String... headers) {
        List<String> json = new ArrayList<>(List.of("Content-Type", "application/json", "Accept",
                "text/event-stream, application/json"));
        json.addAll(List.of(headers));
        String[] all = json.toArray(String[]::new);
        Map<String, HttpResponse<String>> answers = new LinkedHashMap<>();
        answers.put("run", send("POST", "/agui/chat", body, all));
        answers.put("default agent run", send("POST", "/agui", body, all));
        answers.put("connect", send("POST", "/agui/chat/connect", body, all));
        answers.put("stop", send("POST", "/agui/chat/stop/" + threadId, null, all));
        answers.put("thread list", send("GET", "/threads", null, all));
        answers.put("thread", send("GET", "/threads/" + threadId, null, all));
        answers.put("messages", send("GET", "/threads/" + threadId + "/messages", null, all));
        // CopilotKit's runtime endpoints take identity from the same place
        answers.put("copilotkit info", send("GET", "/copilotkit/info", null, all));
        answers.put("copilotkit single route", send("POST", "/copilotkit", "{\"method\":\"info\"}", all));
        answers.put("copilotkit run", send("POST", "/copilotkit/agent/chat/run", body, all));
        answers.put("copilotkit connect", send("POST", "/copilotkit/agent/chat/connect", body, all));
        answers.put("copilotkit stop", send("POST", "/copilotkit/agent/chat/stop/" + threadId, "{}", all));
        answers.put("copilotkit threads", send("GET", "/copilotkit/threads", null, all));
        answers.put("copilotkit messages", send("GET", "/copilotkit/threads/" + threadId + "/messages", null, all));
        answers.put("delete", send("DELETE", "/threads/" + threadId, null, all));
        answers.put("agents", send("GET", "/agui/agents", null, all));
        answers.put("capabilities", send("GET", "/agui/chat/capabilities", null, all));
        return answers;
    }

    private static void assertAllUnauthorized(String why, Map<String, HttpResponse<String>> answers) {
        answers.forEach((endpoint, answer) -> {
            assertEquals(401, answer.statusCode(), why + ": " + endpoint + " answered " + answer.body());
            assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
                    why + ": " + endpoint);
            assertEquals("unauthorized", RunRequests.parse(answer.body()).get("code").asText(), why + ": " + endpoint);
        });
    }

    /** Flips one character of the payload's middle: a claim changed after signing. */
    private static String tampered(String token) {
        String[] parts = token.split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace("\"alice\"", "\"mallory\"");
        return parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
    }

    @Test
    void aValidTokenServesEveryEndpointAsItsUser() {
        TokenIssuer issuer = TokenIssuer.current();
        stub.setDefault(StubResponse.stream().text("hello").build());
        String alice = bearer(issuer.token("alice", "acme"));
        RunRequests request = RunRequests.fresh().user("hi");
        SseClient.Stream stream = run("/agui/chat", request, alice);
        assertEquals(200, stream.response().statusCode(), stream.raw());
        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());

        Map<String, HttpResponse<String>> answers = everyEndpoint(request.threadId(),
                RunRequests.of(request.threadId(), "connect-" + UUID.randomUUID()).json(), "Authorization", alice);
        answers.forEach((endpoint, answer) -> assertTrue(answer.statusCode() < 300,
                endpoint + " answered " + answer.statusCode() + " " + answer.body()));
        assertTrue(answers.get("thread list").body().contains(request.threadId()));
    }

    @Test
    void everyEndpointRefusesEveryBadTokenWith401BeforeAnyStream() {
        TokenIssuer issuer = TokenIssuer.current();
        String valid = issuer.token("alice", "acme");
        long now = Instant.now().getEpochSecond();
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("expired", issuer.token("alice", "acme", c -> {
            c.setIssuedAt(NumericDate.fromSeconds(now - 3600));
            c.setExpirationTime(NumericDate.fromSeconds(now - 60));
        }));
        refused.put("not yet valid", issuer.token("alice", "acme",
                c -> c.setNotBefore(NumericDate.fromSeconds(now + 600))));
        refused.put("wrong issuer", issuer.token("alice", "acme", c -> c.setIssuer("https://elsewhere.test")));
        refused.put("wrong audience", issuer.token("alice", "acme", c -> c.setAudience("another-app")));
        refused.put("alg none", TokenIssuer.unsigned("alice", "acme"));
        refused.put("another key, same kid", TokenIssuer.sign(TokenIssuer.claims("alice", "acme"),
                new TokenIssuer.SigningKey(issuer.signingKey().kid(), TokenIssuer.newKeyPair())));
        refused.put("tampered payload", tampered(valid));
        refused.put("no tenant claim", issuer.token("alice", null));
        refused.put("no user claim", issuer.token("alice", "acme", c -> c.unsetClaim("sub")));
        // RFC 7519: sub is a string (StringOrURI); the README says so, and the token verifier refuses a number there.
        refused.put("a numeric sub", issuer.token("alice", "acme", c -> c.setClaim("sub", 4711)));
        refused.put("not a token", "abc.def.ghi");
        refused.put("unknown API key", "wrong-key");
        String thread = "thread-" + UUID.randomUUID();
        String body = RunRequests.of(thread, "run-1").user("hi").json();
        refused.forEach((why, token) -> assertAllUnauthorized(why, everyEndpoint(thread, body,
                "Authorization", bearer(token))));
        assertAllUnauthorized("the token without 'Bearer'", everyEndpoint(thread, body, "Authorization", valid));
        assertAllUnauthorized("no Authorization header", everyEndpoint(thread, body));
        assertEquals(0, stub.requests().size(), "nothing reached the LLM");
    }

    @Test
    void identityNeverComesFromTheBodyForwardedPropsOrAnotherHeader() {
        String valid = TokenIssuer.current().token("alice", "acme");
        String thread = "thread-" + UUID.randomUUID();
        RunRequests claimsInBody = RunRequests.of(thread, "run-1").user("hi");
        claimsInBody.body().put("user", "alice").put("userId", "alice");
        claimsInBody.body().putObject("forwardedProps").put("user", "alice").put("userId", "alice")
                .put("authorization", bearer(valid)).put("tenant", "acme");
        assertAllUnauthorized("identity in the body", everyEndpoint(thread, claimsInBody.json()));
        String body = RunRequests.of(thread, "run-1").user("hi").json();
        for (String header : List.of("X-User-Id", "X-Forwarded-User", "X-Authorization", "Proxy-Authorization",
                "X-Auth-Token", "Forwarded")) {
            String value = header.startsWith("X-User") || header.equals("X-Forwarded-User") ? "alice" : bearer(valid);
            assertAllUnauthorized("the token in " + header, everyEndpoint(thread, body, header, value));
        }
        assertAllUnauthorized("the token in a cookie", everyEndpoint(thread, body, "Cookie", "Bearer=" + valid));
        assertAllUnauthorized("the token in the query", everyEndpoint(thread + "?access_token=" + valid, body));
        assertEquals(0, stub.requests().size(), "nothing reached the LLM");
    }

    @Test
    void anotherUserOrTenantHasThreadIdsOfTheirOwnOnEveryEndpoint() {
        TokenIssuer issuer = TokenIssuer.current();
        stub.setDefault(StubResponse.stream().text("noted").build());
        RunRequests alices = RunRequests.fresh().user("my secret plan");
        assertEquals(200, run("/agui/chat", alices, bearer(issuer.token("alice", "acme"))).response().statusCode());

        Map<String, String> others = new LinkedHashMap<>();
        others.put("bob of the same tenant", bearer(issuer.token("bob", "acme")));
        others.put("alice of another tenant", bearer(issuer.token("alice", "globex")));
        others.put("the API key's user", "Bearer service-key");
        others.forEach((who, authorization) -> {
            // A body that names alice changes nothing: the caller is the token's.
            Function<String, String> naming = id -> {
                RunRequests request = RunRequests.of(id, "connect-1");
                request.body().putObject("forwardedProps").put("user", "alice").put("tenant", "acme");
                return request.json();
            };
            String[] json = {"Content-Type", "application/json", "Accept", "text/event-stream, application/json",
                    "Authorization", authorization};
            Map<String, Function<String, HttpResponse<String>>> asks = new LinkedHashMap<>();
            asks.put("connect", id -> send("POST", "/agui/chat/connect", naming.apply(id), json));
            asks.put("stop", id -> send("POST", "/agui/chat/stop/" + id, null, json));
            asks.put("thread", id -> send("GET", "/threads/" + id, null, json));
            asks.put("messages", id -> send("GET", "/threads/" + id + "/messages", null, json));
            asks.put("copilotkit connect", id -> send("POST", "/copilotkit/agent/chat/connect", naming.apply(id), json));
            asks.put("copilotkit stop", id -> send("POST", "/copilotkit/agent/chat/stop/" + id, "{}", json));
            asks.put("copilotkit messages", id -> send("GET", "/copilotkit/threads/" + id + "/messages", null, json));
            asks.put("delete", id -> send("DELETE", "/threads/" + id, null, json));
            asks.forEach((endpoint, ask) -> UnknownThreads.assertAnsweredAsUnknown(who + ": " + endpoint,
                    alices.threadId(), ask));
            assertFalse(send("GET", "/threads", null, json).body().contains(alices.threadId()), who);

            SseClient.Stream theirs = run("/agui/chat", RunRequests.of(alices.threadId(), "run-" + UUID.randomUUID())
                    .user("show me"), authorization);
            assertEquals(200, theirs.response().statusCode(), who + ": the id is theirs to use too");
            assertEquals(List.of("show me", "noted"), RunRequests.parse(send("GET", "/threads/" + alices.threadId(),
                    null, "Authorization", authorization).body()).get("messages").findValuesAsText("content"), who);
        });
        HttpResponse<String> stillThere = send("GET", "/threads/" + alices.threadId(), null,
                "Authorization", bearer(issuer.token("alice", "acme")));
        assertEquals(200, stillThere.statusCode());
        assertEquals(List.of("my secret plan", "noted"),
                RunRequests.parse(stillThere.body()).get("messages").findValuesAsText("content"), "nobody else's in it");
    }

    @Test
    void theAppScopeIsPerTenantAndTheUserScopePerUserOfATenant() {
        TokenIssuer issuer = TokenIssuer.current();
        String banner = "\"acme-only-" + UUID.randomUUID() + "\"";
        stub.enqueue(StubResponse.stream().toolCall("c-1", "set_banner", "{\"value\":" + banner + "}").build());
        stub.enqueue(StubResponse.stream().text("set").build());
        RunRequests setting = RunRequests.fresh().user("set the banner");
        setting.body().putObject("state");
        assertEquals(200, run("/agui/scoped", setting, bearer(issuer.token("ann", "acme"))).response().statusCode());

        stub.setDefault(StubResponse.stream().text("hi").build());
        JsonNode sameTenant = stateSeenBy(bearer(issuer.token("ben", "acme")));
        assertEquals(RunRequests.parse("{\"v\":" + banner + "}").get("v"), sameTenant.get("app:banner"));
        assertFalse(stateSeenBy(bearer(issuer.token("ann", "globex"))).has("app:banner"),
                "another tenant's app: scope is its own");
        assertFalse(stateSeenBy("Bearer service-key").has("app:banner"), "the API key's user has no tenant");
    }

    /** The state a new thread of the {@code scoped} agent starts with for this caller. */
    private JsonNode stateSeenBy(String authorization) {
        RunRequests request = RunRequests.fresh().user("hello");
        request.body().putObject("state");
        SseClient.Stream stream = run("/agui/scoped", request, authorization);
        assertEquals(200, stream.response().statusCode(), stream.raw());
        List<JsonNode> snapshots = stream.ofType("STATE_SNAPSHOT");
        return snapshots.isEmpty() ? RunRequests.parse("{}") : snapshots.get(0).get("snapshot");
    }

    @Test
    void anApiKeyKeepsWorkingBesideTokens() {
        stub.setDefault(StubResponse.stream().text("ok").build());
        RunRequests request = RunRequests.fresh().user("hi");
        assertEquals(200, run("/agui/chat", request, "Bearer service-key").response().statusCode());
        HttpResponse<String> thread = send("GET", "/threads/" + request.threadId(), null,
                "Authorization", "Bearer service-key");
        assertEquals(200, thread.statusCode());
    }
}
