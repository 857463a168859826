package dev.aguistate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * A minimal SSE client over the JDK HTTP client, independent of the server's code: posts a run request and
 * parses the frames the way {@code @ag-ui/client} does (blocks split on a blank line, {@code data:} lines JSON,
 * {@code :} lines comments).
 */
public final class SseClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final URI base;

    public SseClient(int port) {
        this.base = URI.create("http://localhost:" + port);
    }

    /**
     * A client of the Quarkus test server. Its port comes from {@code quarkus.http.test-port} (8081 by default)
     * so that two checkouts can run their suites side by side with {@code -Dquarkus.http.test-port=...}.
     */
    public static SseClient forTestServer() {
        return new SseClient(testPort());
    }

    public static int testPort() {
        return ConfigProvider.getConfig().getValue("quarkus.http.test-port", Integer.class);
    }

    /** A finished stream: status, headers, the raw body and its parsed events and comments. */
    public record Stream(HttpResponse<String> response, List<JsonNode> events, List<String> comments) {

        public List<String> types() {
            return events.stream().map(e -> e.path("type").asText()).toList();
        }

        public List<JsonNode> ofType(String type) {
            return events.stream().filter(e -> type.equals(e.path("type").asText())).toList();
        }

        public JsonNode last() {
            return events.get(events.size() - 1);
        }

        public String raw() {
            return response.body();
        }
    }

    public Stream run(String path, String body) {
        HttpResponse<String> response = send(path, body, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        List<JsonNode> events = new ArrayList<>();
        List<String> comments = new ArrayList<>();
        if (response.statusCode() == 200) {
            parse(response.body(), events, comments);
        }
        return new Stream(response, events, comments);
    }

    public HttpResponse<String> post(String path, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            request.headers(headers);
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Opens a run, reads events until {@code stopAt} matches one, then closes the connection (a client that
     * goes away mid-run). Returns the events read.
     */
    public List<JsonNode> runUntil(String path, String body, Predicate<JsonNode> stopAt) {
        HttpResponse<InputStream> response = send(path, body, HttpResponse.BodyHandlers.ofInputStream());
        List<JsonNode> events = new ArrayList<>();
        try (InputStream in = response.body();
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("data:")) {
                    JsonNode event = JSON.readTree(line.substring(line.startsWith("data: ") ? 6 : 5));
                    events.add(event);
                    if (stopAt.test(event)) {
                        break;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return events;
    }

    private <T> HttpResponse<T> send(String path, String body, HttpResponse.BodyHandler<T> handler) {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            return HTTP.send(request, handler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void parse(String body, List<JsonNode> events, List<String> comments) {
        for (String block : body.split("\n\n")) {
            StringBuilder data = new StringBuilder();
            for (String line : block.split("\n")) {
                if (line.startsWith(":")) {
                    comments.add(line);
                } else if (line.startsWith("data:")) {
                    data.append(data.isEmpty() ? "" : "\n").append(line.substring(line.startsWith("data: ") ? 6 : 5));
                }
            }
            if (!data.isEmpty()) {
                try {
                    events.add(JSON.readTree(data.toString()));
                } catch (IOException e) {
                    throw new AssertionError("frame is not JSON: " + data, e);
                }
            }
        }
    }
}
