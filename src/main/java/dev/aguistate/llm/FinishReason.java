package dev.aguistate.llm;

/**
 * Why a response that completed normally ended. A response stopped by a content filter, or cut by the token limit
 * inside a tool call, does not complete: it fails ({@code llm_content_filtered}, {@code llm_output_truncated}).
 */
public enum FinishReason {
    /** The model finished its answer. */
    STOP,
    /** The model stopped to have its tool calls run. */
    TOOL_CALLS,
    /** The token limit ({@code agui.llm.max-tokens} or the model's own) cut the text short; the text is kept. */
    LENGTH,
    /** The upstream gave another reason, or none (it still ended the stream properly). */
    OTHER
}
