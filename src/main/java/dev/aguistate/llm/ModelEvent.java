package dev.aguistate.llm;

/** What a streaming model reports, in order. Tool calls are identified by their index within the response. */
public sealed interface ModelEvent {

    /** A non-empty piece of the answer's text. */
    record TextDelta(String text) implements ModelEvent {}

    /** A piece of the model's visible reasoning (e.g. {@code reasoning_content}), when the model streams it. */
    record ReasoningDelta(String text) implements ModelEvent {}

    /** A new fragment of a tool call's JSON arguments (the fragment only, not the text so far). */
    record ToolCallDelta(int index, String id, String name, String argumentsDelta) implements ModelEvent {}

    /** A tool call is complete; {@code arguments} is its whole JSON text. */
    record ToolCallCompleted(int index, String id, String name, String arguments) implements ModelEvent {}

    /**
     * The response is complete; {@code usage} is null when the upstream did not report it. A text cut by the token
     * limit completes with {@link FinishReason#LENGTH}: what was written stays, the user should learn it is cut.
     */
    record Completed(ModelUsage usage, FinishReason finishReason) implements ModelEvent {}
}
