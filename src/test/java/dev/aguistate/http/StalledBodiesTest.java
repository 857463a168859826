package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.LongWaitsProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Clients that start request bodies and stall, side by side with a normal client: what the stalled bodies hold is
 * bounded per client address and for the server, what cannot be held is refused at once with a JSON 429 or 503 and
 * {@code Retry-After}, and a normal run is served during and after — when the server's bound is full too, since the
 * client that holds the most makes room. The attackers connect from other loopback
 * addresses (127.0.0.2, ...) than the normal client, as clients on other machines would.
 */
@QuarkusTest
@TestProfile(LongWaitsProfile.class)
class StalledBodiesTest extends StubbedLlmTestBase {

    /** What each stalled body announces; the default per-client share holds four of them. */
    private static final int BODY = LongWaitsProfile.BODY;
    private static final int PER_CLIENT = 4 * BODY;

    private final List<Stalled> attack = new ArrayList<>();

    @AfterEach
    void endTheAttack() {
        attack.forEach(Stalled::close);
        attack.clear();
        awaitHeld(0);
    }

    @Test
    void oneClientsStalledBodiesAreBoundedAndANormalRunIsServedDuringAndAfter() {
        List<Stalled> from2 = stall("127.0.0.2", 10);

        List<JsonNode> refusals = refusals(from2, 6);
        for (JsonNode refusal : refusals) {
            assertEquals(429, refusal.get("status").asInt(), refusal.toString());
            assertEquals("too_many_unfinished_requests", refusal.get("code").asText());
        }
        assertEquals(PER_CLIENT, held(), "four bodies of 1 MiB are held for the client");

        normalRun();
        assertEquals(PER_CLIENT, held(), "the stalled bodies were still held while the normal run was served");

        attack.forEach(Stalled::close);
        attack.clear();
        awaitHeld(0);
        stall("127.0.0.2", 4);
        awaitHeld(PER_CLIENT);
        normalRun();
    }

    @Test
    void stalledBodiesFromManyClientsAreBoundedForTheServerAndMakeRoomForANormalRun() {
        stall("127.0.0.3", 4);
        awaitHeld(PER_CLIENT);
        List<Stalled> all = new ArrayList<>(attack);
        all.addAll(stall("127.0.0.4", 4));

        // 127.0.0.4's third body finds the server's six full: 127.0.0.3, which holds more, makes room with its newest;
        // its fourth finds both holding three, neither more than it would: refused.
        List<JsonNode> refusals = refusals(all, 2);
        for (JsonNode refusal : refusals) {
            assertEquals(503, refusal.get("status").asInt(), refusal.toString());
            assertEquals("server_busy", refusal.get("code").asText());
        }
        assertEquals(6L * BODY, held(), "the server's budget, six bodies, and no more");
        given().get("/q/health/live").then().statusCode(200);

        normalRun();
        refusals(all, 3);
        assertEquals(5L * BODY, held(), "a stalled body made room for the normal run's and was refused");

        attack.forEach(Stalled::close);
        attack.clear();
        awaitHeld(0);
        normalRun();
    }

    private void normalRun() {
        stub.enqueue(StubResponse.stream().text("still", " here").build());
        RunRequests request = RunRequests.fresh().user("are you there?");
        SseClient.Stream stream = client.run("/agui", request.json());
        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
    }

    /**
     * Opens {@code count} connections from {@code address}, each announcing a body of 1 MiB and sending 1 KiB of it;
     * each waits for its answer on its own.
     */
    private List<Stalled> stall(String address, int count) {
        List<Stalled> opened = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            opened.add(new Stalled(address));
        }
        attack.addAll(opened);
        return opened;
    }

    /** The answers of the first {@code count} of the connections to be answered, which must come within 10 s. */
    private static List<JsonNode> refusals(List<Stalled> connections, int count) {
        Instant deadline = Instant.now().plusSeconds(10);
        List<JsonNode> answers = new ArrayList<>();
        List<Stalled> waiting = new ArrayList<>(connections);
        while (answers.size() < count) {
            CompletableFuture<Object> any = CompletableFuture.anyOf(waiting.stream().map(s -> s.answer)
                    .toArray(CompletableFuture[]::new));
            try {
                any.get(Duration.between(Instant.now(), deadline).toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError(answers.size() + " of " + connections.size()
                        + " stalled connections were answered within 10 s; expected " + count);
            } catch (InterruptedException | ExecutionException e) {
                throw new AssertionError(e);
            }
            for (Stalled stalled : List.copyOf(waiting)) {
                if (stalled.answer.isDone()) {
                    answers.add(stalled.answer.join());
                    waiting.remove(stalled);
                }
            }
        }
        assertEquals(count, answers.size(), "no more connections were refused than the bound requires");
        return answers;
    }

    /** The bytes the server holds for unfinished bodies ({@code agui_http_pending_body_bytes}). */
    private static long held() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(line -> line.startsWith("agui_http_pending_body_bytes "))
                .map(line -> (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1)))
                .findFirst().orElseThrow(() -> new AssertionError("no agui_http_pending_body_bytes gauge"));
    }

    /** Waits (at most 10 s) until the server holds {@code bytes}: a closed connection is released on its loop. */
    private static void awaitHeld(long bytes) {
        Instant deadline = Instant.now().plusSeconds(10);
        while (held() != bytes) {
            assertTrue(Instant.now().isBefore(deadline), "held " + held() + " bytes, expected " + bytes);
            Thread.onSpinWait();
        }
    }

    /** A connection that sent the start of a run request's body and stalls; {@code answer} completes if answered. */
    private static final class Stalled {

        private final Socket socket;
        private final CompletableFuture<JsonNode> answer = new CompletableFuture<>();

        Stalled(String address) {
            try {
                socket = new Socket(InetAddress.getLoopbackAddress(), SseClient.testPort(),
                        InetAddress.getByName(address), 0);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /agui HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Accept: text/event-stream\r\nContent-Length: " + BODY + "\r\n\r\n{\"pad\":\"")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write("x".repeat(1024).getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Thread reader = new Thread(this::readAnswer, "stalled-body-answer");
            reader.setDaemon(true);
            reader.start();
        }

        private void readAnswer() {
            try (InputStream in = socket.getInputStream()) {
                String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                if (!response.isEmpty()) {
                    assertTrue(response.contains("\r\nRetry-After: 5\r\n") || response.contains("\r\nretry-after: 5\r\n"),
                            response);
                    assertTrue(response.toLowerCase().contains("content-type: application/json"), response);
                    answer.complete(RunRequests.parse(response.substring(response.indexOf("\r\n\r\n") + 4)));
                }
            } catch (IOException | AssertionError e) {
                answer.completeExceptionally(e);
            }
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing is all the test wants
            }
        }
    }
}
