package dev.aguistate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server that receives webhooks: it keeps every request (path, headers, raw body) and answers each one as
 * a test scripted it for the run the body names ({@code data.runId}), or {@code 204}. An answer may hold the request
 * until the test lets it go, as an endpoint that does not answer does.
 */
public final class WebhookReceiver implements AutoCloseable {

    /** One request as it arrived; {@code headers} by lower-case name. */
    public record Received(String path, Map<String, String> headers, byte[] body) {

        public String header(String name) {
            return headers.get(name);
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public JsonNode json() {
            return RunRequests.parse(text());
        }

        String runId() {
            return json().at("/data/runId").asText();
        }
    }

    /** How one request is answered: {@code status}, after {@code release} is counted down when there is one. */
    public record Answer(int status, CountDownLatch release) {

        public static Answer status(int status) {
            return new Answer(status, null);
        }

        /** Held until {@code release}, then {@code 204}. */
        public static Answer held(CountDownLatch release) {
            return new Answer(204, release);
        }
    }

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private final List<Received> received = new ArrayList<>();
    private final Map<String, Deque<Answer>> scripted = new ConcurrentHashMap<>();
    private final AtomicInteger holding = new AtomicInteger();

    private WebhookReceiver(HttpServer server) {
        this.server = server;
        server.createContext("/", this::handle);
        server.setExecutor(handlers);
        server.start();
    }

    public static WebhookReceiver start() {
        try {
            return new WebhookReceiver(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code http://127.0.0.1:<port>}, to which a path is appended. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** How the next requests for {@code runId}'s outcome are answered, in order (then {@code 204}). */
    public void answer(String runId, Answer... answers) {
        scripted.computeIfAbsent(runId, id -> new ConcurrentLinkedDeque<>()).addAll(List.of(answers));
    }

    /** Waits until {@code path} got {@code count} requests for {@code runId}'s outcome, and answers them all so far. */
    public List<Received> await(String path, String runId, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        synchronized (received) {
            while (true) {
                List<Received> matching = of(path, runId);
                if (matching.size() >= count) {
                    return matching;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("expected " + count + " webhooks at " + path + " for run " + runId
                            + ", got " + matching.size());
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(received, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(e);
                }
            }
        }
    }

    /** How many requests are held unanswered now, each until its {@link Answer#held} release (at most 30 s). */
    public int holding() {
        return holding.get();
    }

    /** The requests {@code path} got for {@code runId}'s outcome so far. */
    public List<Received> of(String path, String runId) {
        synchronized (received) {
            return received.stream().filter(request -> request.path().equals(path) && request.runId().equals(runId))
                    .toList();
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Map<String, String> headers = new ConcurrentHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.get(0)));
            Received request = new Received(exchange.getRequestURI().getPath(), Map.copyOf(headers), body);
            synchronized (received) {
                received.add(request);
                received.notifyAll();
            }
            Deque<Answer> answers = scripted.get(request.runId());
            Answer answer = answers == null ? null : answers.pollFirst();
            if (answer != null && answer.release() != null) {
                holding.incrementAndGet();
                try {
                    answer.release().await(30, TimeUnit.SECONDS);
                } finally {
                    holding.decrementAndGet();
                }
            }
            exchange.sendResponseHeaders(answer == null ? 204 : answer.status(), -1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        handlers.shutdownNow();
    }

    @Override
    public String toString() {
        return "WebhookReceiver[" + url() + "]";
    }
}
