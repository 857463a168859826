package dev.aguistate.summary;

import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.StreamingModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.smallrye.mutiny.Uni;
import java.time.Duration;

/**
 * A summary as the model streams it, up to a limit in characters ({@code agui.run.summary.max-chars}): what would
 * go beyond it is cut, never half a surrogate pair. Not thread-safe: one stream's deltas arrive one at a time.
 */
final class SummaryText {

    private final int limit;
    private final StringBuilder text = new StringBuilder();
    private boolean cut;

    SummaryText(int limit) {
        this.limit = limit;
    }

    /**
     * The model's text answer to {@code request}, read up to {@code limit} characters (the rest of the stream is
     * cancelled); fails when the call takes longer than {@code timeout}.
     */
    static Uni<SummaryText> read(StreamingModel model, ChatRequest request, int limit, Duration timeout) {
        SummaryText text = new SummaryText(limit);
        return model.stream(request)
                .filter(event -> event instanceof ModelEvent.TextDelta)
                .onItem().invoke(event -> text.append(((ModelEvent.TextDelta) event).text()))
                .select().first(event -> !text.full())
                .onItem().ignoreAsUni()
                .ifNoItem().after(timeout).fail()
                .replaceWith(text);
    }

    void append(String delta) {
        if (cut) {
            return;
        }
        int room = limit - text.length();
        if (delta.length() <= room) {
            text.append(delta);
            return;
        }
        int end = room > 0 && Character.isHighSurrogate(delta.charAt(room - 1)) ? room - 1 : room;
        text.append(delta, 0, end);
        cut = true;
    }

    /** Whether the limit was reached: the rest of the stream is not wanted. */
    boolean full() {
        return cut || text.length() >= limit;
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
