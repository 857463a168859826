package dev.aguistate.session;

import java.util.Optional;

/**
 * Where a client is in a run: the {@code id:} of the last frame it received, {@code <runId>:<seq>}. A run id may
 * itself hold colons, so the sequence number is what follows the last one.
 */
public record Cursor(String runId, long seq) {

    static String id(String runId, long seq) {
        return runId + ":" + seq;
    }

    /** The cursor an id names; empty when it is not one (a client's own id, garbage): then it is ignored. */
    public static Optional<Cursor> parse(String id) {
        if (id == null) {
            return Optional.empty();
        }
        int colon = id.lastIndexOf(':');
        if (colon <= 0) {
            return Optional.empty();
        }
        try {
            long seq = Long.parseLong(id.substring(colon + 1));
            return seq < 0 ? Optional.empty() : Optional.of(new Cursor(id.substring(0, colon), seq));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
