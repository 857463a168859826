package dev.aguistate.bench;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.core.parsetools.RecordParser;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The servers of the ratio benchmark (bench/ratios.sh), each a few lines of plain Vert.x with nothing of ours:
 *
 * <ul>
 *   <li>{@code bare PORT WORDS PACE_MS}: the physical reference. Any POST is answered with the frames a chat run
 *       of ours sends (RUN_STARTED, TEXT_MESSAGE_START, one TEXT_MESSAGE_CONTENT per word, TEXT_MESSAGE_END,
 *       RUN_FINISHED, with {@code id:} lines) at the same pacing: a content frame every PACE_MS.</li>
 *   <li>{@code upstream PORT WORDS PACE_MS}: an OpenAI-wire chat-completions stub for the real-upstream path, on
 *       an event loop (the test suite's {@code OpenAiStub} gives each connection a thread: fine for tests, not for
 *       2,000 streams): a role chunk, one content chunk per word every PACE_MS, a finish chunk with usage,
 *       {@code [DONE]}. Keep-alive, so our pooled client reuses connections.</li>
 *   <li>{@code relay PORT WORDS PACE_MS UPSTREAM_PORT}: the physical reference of the real-upstream path, the least
 *       a server must do for it. Any POST opens a chat-completions stream to the stub at UPSTREAM_PORT (a pooled
 *       keep-alive client, as ours), splits its body into SSE events as bytes arrive, parses each chunk's JSON and
 *       writes the bare writer's frames, the chunk's content in each, as it arrives. No state, no tools, no log.</li>
 * </ul>
 *
 * Prints "ready" once listening.
 */
public final class BenchServers {

    private BenchServers() {}

    public static void main(String[] args) {
        String mode = args[0];
        int port = Integer.parseInt(args[1]);
        int words = Integer.parseInt(args[2]);
        long paceMs = Long.parseLong(args[3]);
        Vertx vertx = Vertx.vertx();
        HttpClient upstreamClient = mode.equals("relay")
                ? vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setDefaultHost("127.0.0.1")
                        .setDefaultPort(Integer.parseInt(args[4])), new PoolOptions().setHttp1MaxSize(4096))
                : null;
        vertx.createHttpServer()
                .requestHandler(request -> request.body().onSuccess(body -> {
                    switch (mode) {
                        case "bare" -> bareRun(vertx, request, words, paceMs);
                        case "relay" -> relayRun(upstreamClient, request);
                        default -> upstream(vertx, request, words, paceMs);
                    }
                }))
                .listen(port, "127.0.0.1")
                .onSuccess(server -> System.out.println("ready"))
                .onFailure(failure -> {
                    failure.printStackTrace();
                    System.exit(1);
                });
    }

    private static void bareRun(Vertx vertx, HttpServerRequest request, int words, long paceMs) {
        HttpServerResponse response = request.response().setChunked(true)
                .putHeader("Content-Type", "text/event-stream").putHeader("Cache-Control", "no-cache");
        String threadId = UUID.randomUUID().toString();
        String runId = UUID.randomUUID().toString();
        String messageId = UUID.randomUUID().toString();
        int[] sent = {0};
        Frames frames = new Frames();
        response.write(frames.next("{\"type\":\"RUN_STARTED\",\"threadId\":\"" + threadId + "\",\"runId\":\"" + runId
                + "\",\"protocolVersion\":\"1.0\"}")
                + frames.next("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" + messageId
                + "\",\"role\":\"assistant\"}"));
        vertx.setPeriodic(paceMs, paceMs, timer -> {
            if (response.closed()) {
                vertx.cancelTimer(timer);
                return;
            }
            if (sent[0] < words) {
                response.write(frames.next("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" + messageId
                        + "\",\"delta\":\"" + word(sent[0]++) + "\"}"));
                return;
            }
            vertx.cancelTimer(timer);
            response.end(frames.next("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" + messageId + "\"}")
                    + frames.next("{\"type\":\"RUN_FINISHED\",\"threadId\":\"" + threadId + "\",\"runId\":\""
                    + runId + "\",\"outcome\":\"success\"}"));
        });
    }

    private static void relayRun(HttpClient upstreamClient, HttpServerRequest request) {
        HttpServerResponse response = request.response().setChunked(true)
                .putHeader("Content-Type", "text/event-stream").putHeader("Cache-Control", "no-cache");
        String threadId = UUID.randomUUID().toString();
        String runId = UUID.randomUUID().toString();
        String messageId = UUID.randomUUID().toString();
        Frames frames = new Frames();
        response.write(frames.next("{\"type\":\"RUN_STARTED\",\"threadId\":\"" + threadId + "\",\"runId\":\"" + runId
                + "\",\"protocolVersion\":\"1.0\"}"));
        String chat = "{\"model\":\"bench\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Hello\"}]}";
        upstreamClient.request(HttpMethod.POST, "/v1/chat/completions")
                .compose(call -> call.putHeader("Content-Type", "application/json").send(chat))
                .onFailure(failure -> response.reset())
                .onSuccess(stream -> {
                    boolean[] started = {false};
                    RecordParser events = RecordParser.newDelimited("\n\n", event -> {
                        String data = event.getString(6, event.length()); // after "data: "
                        if (data.equals("[DONE]") || response.closed()) {
                            return;
                        }
                        JsonObject choice = new JsonObject(data).getJsonArray("choices").getJsonObject(0);
                        String content = choice.getJsonObject("delta").getString("content");
                        if (!started[0]) {
                            started[0] = true;
                            response.write(frames.next("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\""
                                    + messageId + "\",\"role\":\"assistant\"}"));
                        }
                        if (content != null && !content.isEmpty()) {
                            response.write(frames.next("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\""
                                    + messageId + "\",\"delta\":" + Json.encode(content) + "}"));
                        }
                    });
                    stream.handler(events).endHandler(end -> response.end(
                            frames.next("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" + messageId + "\"}")
                            + frames.next("{\"type\":\"RUN_FINISHED\",\"threadId\":\"" + threadId + "\",\"runId\":\""
                            + runId + "\",\"outcome\":\"success\"}")));
                });
    }

    private static void upstream(Vertx vertx, HttpServerRequest request, int words, long paceMs) {
        HttpServerResponse response = request.response().setChunked(true)
                .putHeader("Content-Type", "text/event-stream");
        String id = "chatcmpl-" + UUID.randomUUID();
        String head = "{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"bench\","
                + "\"choices\":[{\"index\":0,\"delta\":";
        response.write("data: " + head + "{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n");
        int[] sent = {0};
        vertx.setPeriodic(paceMs, paceMs, timer -> {
            if (response.closed()) {
                vertx.cancelTimer(timer);
                return;
            }
            if (sent[0] < words) {
                response.write("data: " + head + "{\"content\":\"" + word(sent[0]++) + "\"},\"finish_reason\":null}]}\n\n");
                return;
            }
            vertx.cancelTimer(timer);
            response.end("data: " + head + "{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":20,"
                    + "\"completion_tokens\":" + words + ",\"total_tokens\":" + (20 + words) + "}}\n\ndata: [DONE]\n\n");
        });
    }

    /** Words of a greeting's length (≈ 6 characters each, as the scripted demo model's). */
    private static String word(int index) {
        return (index == 0 ? "" : " ") + "word" + (index % 10);
    }

    /** Runs started in this process: what numbers a run in its frames' cursors, as a claim's ordinal does ours. */
    private static final AtomicLong RUNS = new AtomicLong();

    /**
     * SSE frames with {@code id: <run>.<n>} lines, as our server writes them: the run's ordinal in base 36 (here the
     * process's count of runs, in ours its claim's ordinal), then the event's number.
     */
    private static final class Frames {
        private final String run = Long.toString(RUNS.incrementAndGet(), Character.MAX_RADIX) + ".";
        private int count;

        String next(String json) {
            return "id: " + run + (++count) + "\ndata: " + json + "\n\n";
        }
    }
}
