package dev.aguistate.run;

import dev.aguistate.llm.ModelDescription;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.StreamingModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.UnicastProcessor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A stub of the LLM at the run loop's port, for unit tests of the run loop: each call answers with the next
 * queued list of model events and records the request. (The server's tests drive the real langchain4j adapter
 * against an OpenAI-wire stub server instead.)
 */
final class StubStreamingModel implements StreamingModel {

    final List<ChatRequest> requests = new ArrayList<>();
    private final Deque<Multi<ModelEvent>> answers = new ArrayDeque<>();
    /** Set when the run cancelled a call that was still streaming: what closes the upstream connection. */
    volatile boolean cancelled;

    StubStreamingModel answer(ModelEvent... events) {
        answers.add(Multi.createFrom().items(events));
        return this;
    }

    /** An answer that streams {@code events}, then nothing more, until the run cancels it. */
    StubStreamingModel answerThenStall(ModelEvent... events) {
        answers.add(Multi.createBy().concatenating().streams(Multi.createFrom().items(events),
                Multi.createFrom().<ModelEvent>nothing()).onCancellation().invoke(() -> cancelled = true));
        return this;
    }

    /**
     * An answer the test streams itself, as the LLM client's callbacks do: each event reaches the run on the thread
     * that feeds it, once the run is under way. Cancelling the call leaves later events unheard.
     */
    StubStreamingModel answerFed(UnicastProcessor<ModelEvent> feed) {
        answers.add(feed.onCancellation().invoke(() -> cancelled = true));
        return this;
    }

    @Override
    public synchronized Multi<ModelEvent> stream(ChatRequest request) { // sub-agents of one round call at once
        requests.add(request);
        if (answers.isEmpty()) {
            throw new AssertionError("the run made an LLM call nobody expected: " + request.messages());
        }
        return answers.poll();
    }

    @Override
    public ModelDescription description() {
        return new ModelDescription("stub", "stub", "stub-model", null);
    }
}
