package dev.aguistate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * An OpenAI-wire-compatible chat-completions server for tests, on a real socket at 127.0.0.1.
 *
 * <p>Each {@code POST /v1/chat/completions} is recorded and answered with the first {@link #answerWhen routed}
 * response whose predicate matches it, else the next {@link #enqueue enqueued} {@link StubResponse}, else the
 * {@link #setDefault default}, else HTTP 500
 * {@code {"error":{"message":"no scripted response"}}}. Anything else gets a 404.
 *
 * <p>HTTP/1.1 is spoken by hand over plain sockets rather than with {@code com.sun.net.httpserver}, because
 * fault injection needs control that server does not give: closing the TCP connection mid-body, writing a
 * body in arbitrary byte slices, and noticing that the client went away while nothing is being written.
 * By default every response carries {@code Connection: close} (one request per connection); with
 * {@link #setKeepAlive keep-alive} a connection serves request after request, as real endpoints do, so that a
 * test can close a pooled connection just as the client reuses it ({@link StubResponse#closeConnection()}).
 * Streamed bodies use chunked transfer encoding so that a dropped connection is a detectable truncation
 * for the client rather than a normal end of body.
 *
 * <p>Thread-safe. {@link #close()} ends all connections, including stalled ones, so a test cannot hang on
 * the stub.
 */
public final class OpenAiStub implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(OpenAiStub.class.getName());
    private static final String CHAT_COMPLETIONS = "/v1/chat/completions";
    private static final String NO_SCRIPTED_RESPONSE = "{\"error\":{\"message\":\"no scripted response\"}}";
    private static final byte[] DONE_FRAME = sseFrame("[DONE]");
    private static final byte[] MALFORMED_FRAME = sseFrame("{not json");
    private static final byte[] ERROR_EVENT_LINE = "event: error\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_BYTE_SLICE = 16;

    private final ServerSocket serverSocket;
    private final ExecutorService connections = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "openai-stub");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<Socket> openSockets = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedDeque<StubResponse> queue = new ConcurrentLinkedDeque<>();
    private final List<Route> routes = new ArrayList<>();
    private volatile StubResponse defaultResponse;
    /** Monitor for everything a test may wait for; guards the fields below it. */
    private final Object progress = new Object();
    private final List<JsonNode> requests = new ArrayList<>();
    private final List<Map<String, String>> requestHeaders = new ArrayList<>();
    private final List<Integer> requestConnections = new ArrayList<>();
    private int disconnectCount;
    private int completedStreams;
    private final AtomicInteger responseIds = new AtomicInteger();
    private final AtomicInteger connectionIds = new AtomicInteger();
    private volatile boolean keepAlive;
    private volatile boolean closed;

    private OpenAiStub(ServerSocket serverSocket) {
        this.serverSocket = serverSocket;
        Thread acceptor = new Thread(this::acceptLoop, "openai-stub-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Starts a stub on a free port of 127.0.0.1. */
    public static OpenAiStub start() {
        try {
            ServerSocket socket = new ServerSocket();
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return new OpenAiStub(socket);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind OpenAI stub", e);
        }
    }

    /** The base URL to configure an OpenAI client with, {@code http://127.0.0.1:<port>/v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + serverSocket.getLocalPort() + "/v1";
    }

    /** A base URL where nothing listens (a port that was free a moment ago): connecting is refused. */
    public static String closedPortBaseUrl() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port", e);
        }
    }

    /** Appends a response; each chat-completions request consumes the oldest one. */
    public void enqueue(StubResponse response) {
        queue.add(response);
    }

    /**
     * Answers the next request that {@code matches} (its JSON body) with {@code response}, ahead of the queue, once:
     * for requests whose order against the others is not known, like a summarizer's beside a run's.
     */
    public void answerWhen(Predicate<JsonNode> matches, StubResponse response) {
        synchronized (routes) {
            routes.add(new Route(matches, response));
        }
    }

    private record Route(Predicate<JsonNode> matches, StubResponse response) {}

    /** The response served whenever the queue is empty; {@code null} restores the 500 "no scripted response". */
    public void setDefault(StubResponse response) {
        defaultResponse = response;
    }

    /**
     * With keep-alive, responses no longer carry {@code Connection: close} and a connection serves further
     * requests until the client closes it. Off at start and after {@link #reset()}.
     */
    public void setKeepAlive(boolean keepAlive) {
        this.keepAlive = keepAlive;
    }

    /** Bodies of the chat-completions requests received so far, oldest first. */
    public List<JsonNode> requests() {
        synchronized (progress) {
            return List.copyOf(requests);
        }
    }

    /** For each request of {@link #requests()}, the number of the connection it came on (1, 2, ... per stub). */
    public List<Integer> requestConnections() {
        synchronized (progress) {
            return List.copyOf(requestConnections);
        }
    }

    /** Waits until at least {@code count} chat-completions requests arrived; whether they did within {@code timeout}. */
    public boolean awaitRequests(int count, Duration timeout) {
        return await(() -> requests.size() >= count, timeout);
    }

    /** Body of the most recent chat-completions request. */
    public JsonNode lastRequest() {
        synchronized (progress) {
            if (requests.isEmpty()) {
                throw new IllegalStateException("no request received");
            }
            return requests.get(requests.size() - 1);
        }
    }

    /** Headers of each chat-completions request (lower-cased names; repeated headers joined by ", "). */
    public List<Map<String, String>> requestHeaders() {
        synchronized (progress) {
            return List.copyOf(requestHeaders);
        }
    }

    /** Forgets queued responses, the default, recorded requests and the counts, and turns keep-alive off. */
    public void reset() {
        queue.clear();
        synchronized (routes) {
            routes.clear();
        }
        defaultResponse = null;
        keepAlive = false;
        synchronized (progress) {
            requests.clear();
            requestHeaders.clear();
            requestConnections.clear();
            disconnectCount = 0;
            completedStreams = 0;
        }
    }

    /**
     * Waits until the client has closed at least one connection before the stub finished its response
     * (since start or {@link #reset()}). A stalled or paced response notices within milliseconds.
     *
     * @return whether that happened within {@code timeout}
     */
    public boolean awaitClientDisconnect(Duration timeout) {
        return await(() -> disconnectCount > 0, timeout);
    }

    /** How many responses the client cut off so far (since start or {@link #reset()}). */
    public int disconnectCount() {
        synchronized (progress) {
            return disconnectCount;
        }
    }

    /**
     * Waits until at least {@code count} streamed responses were written completely, through {@code [DONE]} (since
     * start or {@link #reset()}); whether that happened within {@code timeout}. A client that stops reading keeps
     * a long stream from completing: its socket buffers fill up and the stub's writes block.
     */
    public boolean awaitCompletedStreams(int count, Duration timeout) {
        return await(() -> completedStreams >= count, timeout);
    }

    private boolean await(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (progress) {
            while (!condition.getAsBoolean()) {
                long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (remainingMillis <= 0) {
                    return false;
                }
                try {
                    progress.wait(remainingMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    private void changed(Runnable change) {
        synchronized (progress) {
            change.run();
            progress.notifyAll();
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(serverSocket);
        openSockets.forEach(OpenAiStub::closeQuietly);
        connections.shutdownNow();
        try {
            connections.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket socket = serverSocket.accept();
                openSockets.add(socket);
                if (closed) { // close() may have swept openSockets before the add
                    closeQuietly(socket);
                    return;
                }
                connections.execute(() -> serve(socket));
            } catch (RejectedExecutionException e) {
                return; // close() shut the pool down; it also closed the socket
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(System.Logger.Level.ERROR, "OpenAI stub stopped accepting connections", e);
                }
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            // Without this, Nagle's algorithm would coalesce the small writes that splitFramesAtBytes relies on.
            socket.setTcpNoDelay(true);
            new Connection(socket).handle();
        } catch (ClientDisconnected e) {
            if (!closed) {
                changed(() -> disconnectCount++);
            }
        } catch (IOException e) {
            if (!closed) {
                LOG.log(System.Logger.Level.WARNING, "OpenAI stub connection failed", e);
            }
        } finally {
            openSockets.remove(socket);
        }
    }

    private StubResponse nextResponse(JsonNode request) {
        synchronized (routes) {
            for (int i = 0; i < routes.size(); i++) {
                if (routes.get(i).matches().test(request)) {
                    return routes.remove(i).response();
                }
            }
        }
        StubResponse next = queue.poll();
        return next != null ? next : defaultResponse;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static byte[] sseFrame(String data) {
        return ("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // best effort: we are shutting down
        }
    }

    /** The client closed the connection before the response was complete. */
    private static final class ClientDisconnected extends IOException {
        ClientDisconnected(Throwable cause) {
            super("client closed the connection", cause);
        }
    }

    /** The request/response exchanges on one socket: one, or with keep-alive as many as the client sends. */
    private final class Connection {

        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final int number = connectionIds.incrementAndGet();

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream());
            this.out = new BufferedOutputStream(socket.getOutputStream());
        }

        void handle() throws IOException {
            boolean reusable = exchange();
            while (reusable && keepAlive && !closed && anotherRequestComes()) {
                reusable = exchange();
            }
        }

        /** Waits on an idle keep-alive connection; false when the client closes it instead of sending a request. */
        private boolean anotherRequestComes() {
            try {
                in.mark(1);
                if (in.read() == -1) {
                    return false;
                }
                in.reset();
                return true;
            } catch (IOException closedByClient) {
                return false;
            }
        }

        /** Reads one request and answers it; whether the connection may carry another one. */
        private boolean exchange() throws IOException {
            String[] requestLine = readLine().split(" ");
            Map<String, String> headers = readHeaders();
            String contentLength = headers.get("content-length");
            if (contentLength == null) {
                // HTTP clients send a Content-Length for string bodies; no chunked-request support.
                writeFixed(411, "application/json", "{\"error\":{\"message\":\"Content-Length required\"}}", Map.of());
                return true;
            }
            byte[] body = in.readNBytes(Integer.parseInt(contentLength.trim()));

            if (requestLine.length < 2 || !"POST".equals(requestLine[0]) || !CHAT_COMPLETIONS.equals(requestLine[1])) {
                writeFixed(404, "application/json", "{\"error\":{\"message\":\"unknown endpoint\"}}", Map.of());
                return true;
            }
            JsonNode request;
            try {
                request = StubResponse.JSON.readTree(body);
            } catch (IOException e) {
                writeFixed(400, "application/json", "{\"error\":{\"message\":\"request body is not JSON\"}}",
                        Map.of());
                return true;
            }
            // Recorded before responding, so a test that has seen the response also sees its request.
            changed(() -> {
                requests.add(request);
                requestHeaders.add(Map.copyOf(headers));
                requestConnections.add(number);
            });

            StubResponse response = nextResponse(request);
            if (response == null) {
                writeFixed(500, "application/json", NO_SCRIPTED_RESPONSE, Map.of());
                return true;
            }
            return switch (response.kind) {
                case FIXED_BODY -> {
                    writeFixed(response.status, response.contentType, response.fixedBody, response.headers);
                    yield true;
                }
                case CLOSE_CONNECTION -> false; // serve() closes the socket
                case RESET_CONNECTION -> {
                    socket.setSoLinger(true, 0); // closing now sends RST instead of FIN
                    socket.close();
                    yield false;
                }
                case COMPLETION -> {
                    String id = "chatcmpl-stub" + responseIds.incrementAndGet();
                    long created = Instant.now().getEpochSecond();
                    String model = request.path("model").asText("gpt-stub");
                    yield request.path("stream").asBoolean(false)
                            ? writeStream(response, response.chunkFrames(id, created, model))
                            : writeCompletion(response, response.completionJson(id, created, model));
                }
            };
        }

        private boolean writeCompletion(StubResponse response, String json) throws IOException {
            if (response.stallAfter != null) {
                holdOpen(null);
                return false;
            }
            if (response.dropAfter != null) {
                return false; // serve() closes the socket without any response having been written
            }
            writeFixed(200, "application/json", response.malformedAfter != null ? "{not json" : json, response.headers);
            return true;
        }

        /** Writes the stream; whether it ended properly (the connection may then carry another request). */
        private boolean writeStream(StubResponse response, List<String> frames) throws IOException {
            writeHead(200, "text/event-stream", "Transfer-Encoding: chunked\r\nCache-Control: no-cache\r\n",
                    response.headers);
            Random byteSplitter = response.newByteSplitter();
            byte[] comment = response.comment == null ? null
                    : (": " + response.comment + "\n\n").getBytes(StandardCharsets.UTF_8);
            // Each pass sends data frame number `sent`, or [DONE] once all data frames are out.
            for (int sent = 0; sent <= frames.size(); sent++) {
                if (sent > 0 && !response.delayBetweenChunks.isZero()) {
                    holdOpen(response.delayBetweenChunks);
                }
                if (isAt(response.malformedAfter, sent)) {
                    writeBodyBytes(MALFORMED_FRAME, byteSplitter);
                }
                if (isAt(response.errorAfter, sent)) {
                    byte[] error = sseFrame(response.inlineError);
                    writeBodyBytes(response.errorEvent ? concat(ERROR_EVENT_LINE, error) : error, byteSplitter);
                    writeBodyBytes(DONE_FRAME, byteSplitter);
                    writeRaw(LAST_CHUNK);
                    return true;
                }
                if (isAt(response.endAfter, sent)) {
                    writeRaw(LAST_CHUNK);
                    return true;
                }
                if (isAt(response.dropAfter, sent)) {
                    // serve() closes with FIN, not RST, so all bytes sent so far reach the client before it sees
                    // the chunked body end early. (The JDK client may still drop frames it has not handed to its
                    // reader yet; tests that need them delivered pace the stream with delayBetweenChunks.)
                    return false;
                }
                if (isAt(response.stallAfter, sent)) {
                    holdOpen(null);
                    return false;
                }
                if (isAt(response.holdAfter, sent) && !released(response.release)) {
                    return false;
                }
                if (comment != null) {
                    writeBodyBytes(comment, byteSplitter);
                }
                writeBodyBytes(sent < frames.size() ? sseFrame(frames.get(sent)) : DONE_FRAME, byteSplitter);
            }
            writeRaw(LAST_CHUNK);
            changed(() -> completedStreams++);
            return true;
        }

        /**
         * Keeps the connection open, writing nothing, until {@code limit} passes or the stub is closed; throws
         * {@link ClientDisconnected} as soon as the client closes it. Reading is how a silent connection
         * learns of the client's FIN: the client sends nothing after its request, so a read only returns at
         * end of stream.
         *
         * @param limit how long to wait, {@code null} for as long as the connection lives
         */
        private void holdOpen(Duration limit) throws IOException {
            socket.setSoTimeout(limit == null ? 0 : (int) Math.max(1, limit.toMillis()));
            try {
                while (in.read() != -1) {
                    // bytes after the request are unexpected; ignore them and keep waiting
                }
            } catch (SocketTimeoutException e) {
                return;
            } catch (IOException e) {
                if (closed) {
                    return; // the stub closed the socket
                }
                throw new ClientDisconnected(e); // connection reset by the client
            }
            throw new ClientDisconnected(null);
        }

        /** Waits for the test to count {@code release} down; false if the stub closed first. */
        private boolean released(CountDownLatch release) {
            try {
                while (!release.await(50, TimeUnit.MILLISECONDS)) {
                    if (closed) {
                        return false;
                    }
                }
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        /** Writes body bytes as one HTTP chunk, or as random small chunks when splitting. */
        private void writeBodyBytes(byte[] bytes, Random byteSplitter) throws IOException {
            int offset = 0;
            while (offset < bytes.length) {
                int length = byteSplitter == null
                        ? bytes.length
                        : Math.min(bytes.length - offset, 1 + byteSplitter.nextInt(MAX_BYTE_SLICE));
                ByteArrayOutputStream chunk = new ByteArrayOutputStream(length + 12);
                chunk.writeBytes((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                chunk.write(bytes, offset, length);
                chunk.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
                writeRaw(chunk.toByteArray());
                offset += length;
            }
        }

        private void writeFixed(int status, String contentType, String body, Map<String, String> headers)
                throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            writeHead(status, contentType, "Content-Length: " + bytes.length + "\r\n", headers);
            writeRaw(bytes);
        }

        private void writeHead(int status, String contentType, String framing, Map<String, String> headers)
                throws IOException {
            StringBuilder head = new StringBuilder("HTTP/1.1 " + status + " " + reasonPhrase(status) + "\r\n");
            if (contentType != null) {
                head.append("Content-Type: ").append(contentType).append("\r\n");
            }
            head.append(framing);
            headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            head.append(keepAlive ? "\r\n" : "Connection: close\r\n\r\n");
            writeRaw(head.toString().getBytes(StandardCharsets.US_ASCII));
        }

        /** Writes and flushes; a failure while the stub is open means the client went away. */
        private void writeRaw(byte[] bytes) throws IOException {
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                throw closed ? e : new ClientDisconnected(e);
            }
        }

        private String readLine() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b == -1) {
                    throw new EOFException("connection closed inside the request head");
                }
                line.write(b);
            }
            String text = line.toString(StandardCharsets.ISO_8859_1);
            return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        }

        private Map<String, String> readHeaders() throws IOException {
            Map<String, String> headers = new LinkedHashMap<>();
            for (String line = readLine(); !line.isEmpty(); line = readLine()) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                    headers.merge(name, line.substring(colon + 1).trim(), (a, b) -> a + ", " + b);
                }
            }
            return headers;
        }
    }

    private static boolean isAt(Integer faultPosition, int sent) {
        return faultPosition != null && faultPosition == sent;
    }

    private static String reasonPhrase(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 411 -> "Length Required";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            default -> "Status " + status;
        };
    }
}
