package dev.aguistate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A small MCP server for tests, speaking Streamable HTTP on a real socket at 127.0.0.1 (JSON answers, an event
 * stream for {@code chart}, the GET stream for its own notifications), whose tools misbehave on purpose:
 * {@code get_weather} (text), {@code chart} (an image, over an event stream), {@code fail} ({@code isError}),
 * {@code garbage} (an answer that is not JSON), {@code slow} (answers only when cancelled or after a minute),
 * {@code big} (a long text), {@code whoami} (the {@code Authorization} header it got), {@code refund}, and
 * {@code secret} (which allow-lists leave out). It records every call and notification, and serves
 * {@code GET /weather/{city}} as a plain HTTP endpoint for HTTP tools.
 */
public final class McpFixture implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    public static final String TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

    /** One tools/call as the fixture received it. */
    public record Call(long id, String tool, JsonNode arguments, String authorization, String apiKey, JsonNode meta) {}

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "mcp-fixture");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<JsonNode> notifications = new CopyOnWriteArrayList<>();
    private final List<OutputStream> notificationStreams = new CopyOnWriteArrayList<>();
    private final List<String> extraTools = new CopyOnWriteArrayList<>();
    /** The {@code slow} calls in progress, by request id, each answered once the client cancels it. */
    private final java.util.Map<Long, CountDownLatch> slowCalls = new java.util.concurrent.ConcurrentHashMap<>();
    private final Object progress = new Object();

    private McpFixture(HttpServer server) {
        this.server = server;
    }

    public static McpFixture start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            McpFixture fixture = new McpFixture(server);
            server.setExecutor(fixture.threads);
            server.createContext("/mcp", fixture::mcp);
            server.createContext("/weather/", fixture::weather);
            server.start();
            return fixture;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    public List<Call> callsOf(String tool) {
        return calls.stream().filter(call -> call.tool().equals(tool)).toList();
    }

    public List<JsonNode> notifications(String method) {
        return notifications.stream().filter(n -> n.path("method").asText().equals(method)).toList();
    }

    /** Waits until {@code tool} was called; false after {@code timeout}. */
    public boolean awaitCall(String tool, Duration timeout) throws InterruptedException {
        return await(() -> !callsOf(tool).isEmpty(), timeout);
    }

    /** Waits until the server was told to cancel a request; false after {@code timeout}. */
    public boolean awaitCancelled(Duration timeout) throws InterruptedException {
        return await(() -> !notifications("notifications/cancelled").isEmpty(), timeout);
    }

    private boolean await(java.util.function.BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (progress) {
            while (!condition.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(progress, left);
            }
            return true;
        }
    }

    private void advanced() {
        synchronized (progress) {
            progress.notifyAll();
        }
    }

    /** Adds a tool and tells the clients listening on the GET stream that the list changed. */
    public void addTool(String name) throws IOException {
        extraTools.add(name);
        byte[] event = ("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n")
                .getBytes(StandardCharsets.UTF_8);
        for (OutputStream stream : notificationStreams) {
            try {
                stream.write(event);
                stream.flush();
            } catch (IOException gone) {
                notificationStreams.remove(stream);
            }
        }
    }

    public int notificationListeners() {
        return notificationStreams.size();
    }

    public void reset() {
        calls.clear();
        notifications.clear();
    }

    private void weather(HttpExchange exchange) throws IOException {
        String city = exchange.getRequestURI().getPath().substring("/weather/".length());
        if (city.equals("Atlantis")) {
            respond(exchange, 404, "text/plain", "no such city");
        } else {
            String units = exchange.getRequestURI().getQuery();
            respond(exchange, 200, "application/json", "{\"city\":\"" + city + "\",\"sky\":\"sunny\",\"query\":\""
                    + units + "\",\"auth\":\"" + exchange.getRequestHeaders().getFirst("Authorization") + "\"}");
        }
    }

    private void mcp(HttpExchange exchange) throws IOException {
        if (exchange.getRequestMethod().equals("GET")) {
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream stream = exchange.getResponseBody();
            stream.write(": listening\n\n".getBytes(StandardCharsets.UTF_8));
            stream.flush();
            notificationStreams.add(stream);
            advanced();
            return; // left open for notifications
        }
        if (exchange.getRequestMethod().equals("DELETE")) {
            respond(exchange, 200, "application/json", "{}");
            return;
        }
        JsonNode message = JSON.readTree(exchange.getRequestBody());
        String method = message.path("method").asText();
        if (!message.has("id")) {
            notifications.add(message);
            advanced();
            if (method.equals("notifications/cancelled")) {
                CountDownLatch slow = slowCalls.get(message.at("/params/requestId").asLong());
                if (slow != null) {
                    slow.countDown();
                }
            }
            exchange.sendResponseHeaders(202, -1);
            exchange.close();
            return;
        }
        long id = message.get("id").asLong();
        switch (method) {
            case "initialize" -> {
                ObjectNode result = JSON.createObjectNode()
                        .put("protocolVersion", message.at("/params/protocolVersion").asText());
                result.putObject("capabilities").putObject("tools").put("listChanged", true);
                result.putObject("serverInfo").put("name", "fixture").put("version", "1");
                exchange.getResponseHeaders().add("Mcp-Session-Id", "session-1");
                answer(exchange, id, result);
            }
            case "tools/list" -> answer(exchange, id, toolList());
            case "tools/call" -> call(exchange, id, message.get("params"));
            default -> respond(exchange, 200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":" + id
                    + ",\"error\":{\"code\":-32601,\"message\":\"no such method\"}}");
        }
    }

    private ObjectNode toolList() {
        ObjectNode result = JSON.createObjectNode();
        ArrayNode tools = result.putArray("tools");
        List<String> names = new ArrayList<>(List.of("get_weather", "chart", "fail", "garbage", "slow", "big", "whoami",
                "refund", "secret"));
        names.addAll(extraTools);
        for (String name : names) {
            ObjectNode tool = tools.addObject().put("name", name).put("description", "The fixture's " + name);
            ObjectNode schema = tool.putObject("inputSchema").put("type", "object");
            if (name.equals("get_weather")) {
                schema.putObject("properties").putObject("city").put("type", "string").put("description", "City");
                schema.putArray("required").add("city");
            }
        }
        return result;
    }

    private void call(HttpExchange exchange, long id, JsonNode params) throws IOException {
        String tool = params.path("name").asText();
        calls.add(new Call(id, tool, params.path("arguments"), exchange.getRequestHeaders().getFirst("Authorization"),
                exchange.getRequestHeaders().getFirst("X-Api-Key"), params.path("_meta")));
        advanced();
        switch (tool) {
            case "get_weather" -> answer(exchange, id, text("Sunny in " + params.at("/arguments/city").asText()));
            case "chart" -> {
                ObjectNode result = JSON.createObjectNode();
                ArrayNode content = result.putArray("content");
                content.addObject().put("type", "text").put("text", "Here is the chart:");
                content.addObject().put("type", "image").put("data", TINY_PNG).put("mimeType", "image/png");
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                OutputStream body = exchange.getResponseBody();
                body.write(("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":"
                        + "{\"progressToken\":1,\"progress\":1}}\n\n").getBytes(StandardCharsets.UTF_8));
                body.write(("data: " + response(id, result) + "\n\n").getBytes(StandardCharsets.UTF_8));
                body.close();
            }
            case "fail" -> {
                ObjectNode result = text("the order database is locked");
                result.put("isError", true);
                answer(exchange, id, result);
            }
            case "garbage" -> respond(exchange, 200, "application/json", "<html>not json</html>");
            case "slow" -> {
                try {
                    slowCalls.computeIfAbsent(id, key -> new CountDownLatch(1)).await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                answer(exchange, id, text("finally"));
            }
            case "big" -> answer(exchange, id, text("x".repeat(50_000)));
            case "whoami" -> answer(exchange, id, text(String.valueOf(
                    exchange.getRequestHeaders().getFirst("Authorization"))));
            default -> answer(exchange, id, text(tool + " done"));
        }
    }

    private static ObjectNode text(String text) {
        ObjectNode result = JSON.createObjectNode();
        result.putArray("content").addObject().put("type", "text").put("text", text);
        return result;
    }

    private static String response(long id, JsonNode result) {
        ObjectNode response = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
        response.set("result", result);
        return response.toString();
    }

    private static void answer(HttpExchange exchange, long id, JsonNode result) throws IOException {
        respond(exchange, 200, "application/json", response(id, result));
    }

    private static void respond(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        slowCalls.values().forEach(CountDownLatch::countDown);
        notificationStreams.forEach(stream -> {
            try {
                stream.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        });
        server.stop(0);
        threads.shutdownNow();
    }

    /** Names of the fixture's tools an allow-list may name. */
    public static final Set<String> TOOLS = Set.of("get_weather", "chart", "fail", "garbage", "slow", "big",
            "whoami", "refund");
}
