package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.LongWaitsProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
        try (InputStream frames = new GZIPInputStream(response.body())) {
            // the model stalls for two minutes (the idle timeout) after these: a server that held them in the
            // compressor's buffer would send them only when the run ends
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                while (deltas.size() < 2) { // the model sent two text chunks, then stalls: nothing follows them yet
                    String line = readLine(frames);
                    assertTrue(line != null, "the stream ended early: " + deltas);
                    if (line.startsWith("data: ")) {
                        JsonNode event = RunRequests.parse(line.substring("data: ".length()));
                        if (event.path("type").asText().equals("TEXT_MESSAGE_CONTENT")) {
                            deltas.add(event.get("delta").asText());
                        }
                    }
                }
            });
        }
        assertEquals(List.of("Once", " upon"), deltas);
    }

    /**
     * A line of the decompressed stream, read byte by byte: a reader that fills a buffer asks for more while
     * {@link GZIPInputStream#available()} says 1, which it does until the stream's end, and would wait for the run
     * to end.
     */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b == -1) {
                return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
            }
            line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aClientThatDoesNotAskForCompressionGetsThePlainStream() {
        stub.enqueue(StubResponse.stream().text("Hello").build());
        SseClient.Stream stream = client.run("/agui/notebook", RunRequests.fresh().user("hi").json());

        assertEquals("none", stream.response().headers().firstValue("content-encoding").orElse("none"));
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
    }
}
