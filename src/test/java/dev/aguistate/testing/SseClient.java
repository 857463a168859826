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
import java.util.Optional;
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
    /** Sent with every request (name, value pairs), e.g. the caller's credentials. */
    private final String[] always;

    public SseClient(int port) {
        this(URI.create("http://localhost:" + port), new String[0]);
    }

    private SseClient(URI base, String[] always) {
        this.base = base;
        this.always = always;
    }

    /** This client, sending these headers (name, value pairs) with every request: a caller who is always the same. */
    public SseClient sending(String... headers) {
        return new SseClient(base, headers);
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

    /** A run request sent as JSON with these extra headers (name, value pairs), its stream read to the end. */
    public Stream run(String path, String body, String... headers) {
        List<String> all = new ArrayList<>(List.of("Content-Type", "application/json", "Accept", "text/event-stream"));
        all.addAll(List.of(headers));
        HttpResponse<String> response = post(path, body, all.toArray(String[]::new));
        List<JsonNode> events = new ArrayList<>();
        List<String> comments = new ArrayList<>();
        if (response.statusCode() == 200) {
            parse(response.body(), events, comments);
        }
        return new Stream(response, events, comments);
    }

    public HttpResponse<String> post(String path, String body, String... headers) {
        return post(path, body.getBytes(StandardCharsets.UTF_8), headers);
    }

    /** A POST of exactly these bytes, e.g. a body that is not valid UTF-8. */
    public HttpResponse<String> post(String path, byte[] body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        return exchange(withHeaders(request, headers), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /**
     * Opens a run, reads events until {@code stopAt} matches one, then closes the connection (a client that
     * goes away mid-run). Returns the events read.
     */
    public List<JsonNode> runUntil(String path, String body, Predicate<JsonNode> stopAt) {
        try (LiveStream stream = open(path, body)) {
            stream.readUntil(stopAt);
            return stream.events();
        }
    }

    /**
     * Opens a run and leaves its stream open: the test reads events when it wants them and decides when the
     * client goes away ({@link LiveStream#close()}), so it can act while the run is still in progress.
     */
    public LiveStream open(String path, String body, String... headers) {
        return new LiveStream(send(path, body, HttpResponse.BodyHandlers.ofInputStream(), headers));
    }

    /** {@code GET path}, for the non-streaming endpoints. */
    public HttpResponse<String> get(String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).GET();
        return exchange(withHeaders(request, headers), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** One SSE frame as received: its {@code id:} (null when it has none) and its {@code data:}. */
    public record Frame(String id, String data) {}

    /** A run's stream that is read on demand; closing it closes the connection. */
    public static final class LiveStream implements AutoCloseable {

        private final HttpResponse<InputStream> response;
        private final BufferedReader reader;
        private final List<JsonNode> events = new ArrayList<>();
        private final List<Frame> frames = new ArrayList<>();

        private LiveStream(HttpResponse<InputStream> response) {
            this.response = response;
            this.reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        }

        public int status() {
            return response.statusCode();
        }

        /** Reads events until one matches (returned) or the stream ends (empty). */
        public Optional<JsonNode> readUntil(Predicate<JsonNode> wanted) {
            try {
                String line;
                String id = null;
                while ((line = reader.readLine()) != null) {
                    if (line.isEmpty()) {
                        id = null; // a blank line ends the frame
                    } else if (line.startsWith("id:")) {
                        id = line.substring(line.startsWith("id: ") ? 4 : 3);
                    } else if (line.startsWith("data:")) {
                        String data = line.substring(line.startsWith("data: ") ? 6 : 5);
                        JsonNode event = JSON.readTree(data);
                        events.add(event);
                        frames.add(new Frame(id, data));
                        if (wanted.test(event)) {
                            return Optional.of(event);
                        }
                    }
                }
                return Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Reads until an event of this type arrives; fails if the stream ends first. */
        public JsonNode await(String type) {
            return readUntil(event -> type.equals(event.path("type").asText())).orElseThrow(() ->
                    new AssertionError("the stream ended without " + type + "; events: " + events));
        }

        /** Reads to the end of the stream; returns every event read from it. */
        public List<JsonNode> readToEnd() {
            readUntil(event -> false);
            return events();
        }

        /** The events read so far. */
        public List<JsonNode> events() {
            return List.copyOf(events);
        }

        /** The frames read so far, as they came: the cursor a client would resume from is the last one's id. */
        public List<Frame> frames() {
            return List.copyOf(frames);
        }

        /** The {@code id:} of each event read so far, in order; null where an event had none. */
        public List<String> ids() {
            return frames.stream().map(Frame::id).toList();
        }

        @Override
        public void close() {
            try {
                reader.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private <T> HttpResponse<T> send(String path, String body, HttpResponse.BodyHandler<T> handler,
                                     String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        return exchange(withHeaders(request, headers), handler);
    }

    private HttpRequest withHeaders(HttpRequest.Builder request, String... headers) {
        if (always.length > 0) {
            request.headers(always);
        }
        if (headers.length > 0) {
            request.headers(headers);
        }
        return request.build();
    }

    private static <T> HttpResponse<T> exchange(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
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
