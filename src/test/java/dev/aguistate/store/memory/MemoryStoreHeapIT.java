package dev.aguistate.store.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aguistate.replicas.InstanceLogs;
import dev.aguistate.replicas.ServerInstance;
import dev.aguistate.testing.ItOrder;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fault campaign that found the in-memory store filling the heap, replayed against the packaged server with its
 * 256 MB heap ({@link ServerInstance}): 120 runs, each on a thread of its own with a message of 1 MB, which the demo
 * model answers with as much again. Counted in threads (10,000 allowed), nothing made room, and from the 80th run on
 * every run failed with an out-of-memory error while readiness said UP. Counted in bytes, every run finishes, and
 * the oldest threads make room for the newest.
 */
@Order(ItOrder.MEMORY_STORE_HEAP)
class MemoryStoreHeapIT {

    private static final int RUNS = 120;
    /** With the JSON around it, just under agui.http.max-request-bytes (1 MiB). */
    private static final int MESSAGE_CHARS = (1 << 20) - 256;

    @RegisterExtension
    final InstanceLogs logs = new InstanceLogs();

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void runsWithLargeMessagesOnNewThreadsAllFinishAndTheOldestThreadsMakeRoom() {
        try (ServerInstance server = logs.watch(ServerInstance.launch("memory-heap",
                Map.of("agui.llm.demo.chunk-delay", "0ms")))) {
            server.awaitReady();
            SseClient client = server.client();
            String message = "x".repeat(MESSAGE_CHARS);
            List<String> threads = new ArrayList<>();

            for (int run = 0; run < RUNS; run++) {
                RunRequests request = RunRequests.fresh().user(message);
                SseClient.Stream stream = client.run("/agui", request.json());
                assertEquals(200, stream.response().statusCode(), stream.raw());
                assertEquals("RUN_FINISHED", stream.last().path("type").asText(), "run " + run + ": " + stream.last());
                threads.add(request.threadId());
            }

            assertEquals(200, client.get("/q/health/ready").statusCode(), "ready after the campaign");
            assertEquals(200, client.get("/threads/" + threads.get(RUNS - 1)).statusCode(), "the newest is kept");
            assertEquals(404, client.get("/threads/" + threads.get(0)).statusCode(), "the oldest made room");
        }
    }
}
