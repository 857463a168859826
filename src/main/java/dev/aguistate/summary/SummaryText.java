package dev.aguistate.summary;

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
