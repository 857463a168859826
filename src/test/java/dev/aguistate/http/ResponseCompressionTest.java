package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.LongWaitsProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * {@code agui.http.compression}: a run's event stream gzipped for a client that accepts it, its frames still
 * leaving one by one: the client decodes each while the model has stalled, before anything after it exists.
 */
@QuarkusTest
@TestProfile(LongWaitsProfile.class)
class ResponseCompressionTest extends StubbedLlmTestBase {

    @Test
    void aCompressedStreamDeliversEachFrameAsItIsWrittenNotWhenACompressorBufferFills() throws Exception {
        stub.enqueue(StubResponse.stream().text("Once", " upon", " a time").stallAfter(3).build());
        RunRequests request = RunRequests.fresh().user("tell a story");
        HttpRequest post = HttpRequest.newBuilder(URI.create("http://localhost:" + SseClient.testPort() + "/agui/notebook"))
                .header("Content-Type", "application/json").header("Accept", "text/event-stream")
                .header("Accept-Encoding", "gzip").POST(HttpRequest.BodyPublishers.ofString(request.json())).build();
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(post,
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals("gzip", response.headers().firstValue("content-encoding").orElse("none"));

        List<String> deltas = new ArrayList<>();
        try (BufferedReader frames = new BufferedReader(new InputStreamReader(new GZIPInputStream(response.body()),
                StandardCharsets.UTF_8))) {
            while (deltas.size() < 2) { // the model sent two text chunks, then stalls: nothing follows them yet
                String line = frames.readLine();
                assertTrue(line != null, "the stream ended early: " + deltas);
                if (line.startsWith("data: ")) {
                    JsonNode event = RunRequests.parse(line.substring("data: ".length()));
                    if (event.path("type").asText().equals("TEXT_MESSAGE_CONTENT")) {
                        deltas.add(event.get("delta").asText());
                    }
                }
            }
        }
        assertEquals(List.of("Once", " upon"), deltas);
    }

    @Test
    void aClientThatDoesNotAskForCompressionGetsThePlainStream() {
        stub.enqueue(StubResponse.stream().text("Hello").build());
        SseClient.Stream stream = client.run("/agui/notebook", RunRequests.fresh().user("hi").json());

        assertEquals("none", stream.response().headers().firstValue("content-encoding").orElse("none"));
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
    }
}
