package dev.aguistate.llm;

import dev.langchain4j.model.chat.request.ChatRequest;
import io.smallrye.mutiny.Multi;

/**
 * The port the run loop talks to: stream one chat request as {@link ModelEvent}s.
 *
 * <p>The stream completes after exactly one {@link ModelEvent.Completed}, or fails with a {@link ModelFailure}.
 * Cancelling the subscription aborts the upstream request. Implementations never know about AG-UI.
 */
public interface StreamingModel {

    Multi<ModelEvent> stream(ChatRequest request);

    ModelDescription description();
}
