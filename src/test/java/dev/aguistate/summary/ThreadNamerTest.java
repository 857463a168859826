package dev.aguistate.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.llm.StreamingModel;
import dev.aguistate.session.Caller;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadInfo;
import dev.aguistate.store.ThreadStore;
import dev.aguistate.store.ThreadsConfig;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Naming a thread after its first exchange ({@code agui.threads.auto-name}), with the real LLM adapter against the
 * stub: the namer is made here with naming on, over the server's store and model (the server itself runs with it
 * off, its default).
 */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class ThreadNamerTest extends StubbedLlmTestBase {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    ThreadStore store;
    @Inject
    StreamingModel model;
    @Inject
    SummaryConfig summaryConfig;

    private ThreadNamer namer() {
        return new ThreadNamer(store, model, new ThreadsConfig() {
            @Override
            public int maxMetadataBytes() {
                return 4096;
            }

            @Override
            public boolean autoName() {
                return true;
            }
        }, summaryConfig);
    }

    private StoredThread stored(String threadId) {
        return store.load(Caller.ANONYMOUS.thread(threadId)).await().atMost(WAIT).orElseThrow();
    }

    @Test
    void theFirstExchangeIsNamedByTheModelOnlyWhileTheThreadHasNoName() {
        stub.setDefault(StubResponse.stream().text("Try a leek and potato soup.").build());
        RunRequests run = RunRequests.fresh().user("What soup can I make for four?");
        assertEquals(200, client.post("/agui", run.json(), "Content-Type", "application/json").statusCode());
        StoredThread thread = stored(run.threadId());
        stub.enqueue(StubResponse.stream().text("\"Soup ", "for four.\"").build());

        assertEquals(ThreadNamer.Outcome.NAMED, namer().name(thread).await().atMost(WAIT));

        assertEquals("Soup for four", stored(run.threadId()).info().name(), "quotes and the final stop dropped");
        String asked = stub.lastRequest().toString();
        assertTrue(asked.contains("What soup can I make for four?") && asked.contains("leek and potato"),
                "the model reads the first exchange: " + asked);
        int requests = stub.requests().size();
        assertEquals(ThreadNamer.Outcome.NOT_DUE, namer().name(stored(run.threadId())).await().atMost(WAIT));
        assertEquals(ThreadNamer.Outcome.MOVED_ON, namer().name(thread).await().atMost(WAIT),
                "a name set meanwhile (here the namer's own) is kept");
        assertEquals(requests + 1, stub.requests().size(), "a named thread costs no call");
        assertEquals("Soup for four", stored(run.threadId()).info().name());
    }

    @Test
    void aThreadPastItsFirstExchangeOrAFailedCallIsNotNamed() {
        stub.setDefault(StubResponse.stream().text("ok").build());
        RunRequests run = RunRequests.fresh().user("one");
        client.post("/agui", run.json(), "Content-Type", "application/json");
        StoredThread thread = stored(run.threadId());
        stub.enqueue(StubResponse.error(500, "{\"error\":{\"message\":\"down\"}}"));

        assertEquals(ThreadNamer.Outcome.FAILED, namer().name(thread).await().atMost(WAIT));
        assertEquals(ThreadInfo.EMPTY, stored(run.threadId()).info());

        client.post("/agui", RunRequests.of(run.threadId(), "run-2").user("two").json(),
                "Content-Type", "application/json");
        int requests = stub.requests().size();
        assertEquals(ThreadNamer.Outcome.NOT_DUE, namer().name(stored(run.threadId())).await().atMost(WAIT));
        assertEquals(requests, stub.requests().size());
    }
}
