package dev.aguistate.session;

import dev.aguistate.store.RunLock;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a client is in a run: the {@code id:} of the last frame it received. A frame names its run by the ordinal of
 * the run's claim ({@link RunLock#ordinal(String)}), which no other run of the store has, in base 36, then the
 * event's number: {@code <ordinal>.<seq>}, such as {@code 2s.41}. A run whose claim has no ordinal (taken by a
 * replica before them) is named by its id, as every cursor was before: {@code <runId>:<seq>}. Both forms are read:
 * a cursor that holds a colon is the older form (a run id may itself hold colons, so the sequence number is what
 * follows the last one); one without is the compact form.
 *
 * @param run     the run as the cursor names it: its claim's ordinal in base 36 when {@code ordinal}, else its id
 * @param ordinal whether {@code run} is the claim's ordinal (the compact form)
 */
public record Cursor(String run, boolean ordinal, long seq) {

    /** The cursor of event {@code seq} of the run {@code runId} whose claim's token (its log's key) is {@code token}. */
    static String id(String runId, String token, long seq) {
        return of(runId, token) + seq;
    }

    /** What every cursor of the run {@code runId} whose claim's token is {@code token} starts with: all but the seq. */
    static String of(String runId, String token) {
        OptionalLong claim = RunLock.ordinal(token);
        return claim.isPresent() ? Long.toString(claim.getAsLong(), Character.MAX_RADIX) + "." : runId + ":";
    }

    /** The cursor an id names; empty when it is not one (a client's own id, garbage): then it is ignored. */
    public static Optional<Cursor> parse(String id) {
        if (id == null) {
            return Optional.empty();
        }
        int colon = id.lastIndexOf(':');
        int split = colon >= 0 ? colon : id.indexOf('.');
        if (split <= 0) {
            return Optional.empty();
        }
        try {
            long seq = Long.parseLong(id.substring(split + 1));
            String run = id.substring(0, split);
            if (seq < 0 || colon < 0 && Long.parseLong(run, Character.MAX_RADIX) <= 0) {
                return Optional.empty();
            }
            return Optional.of(new Cursor(run, colon < 0, seq));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Whether this cursor is in the run {@code runId} whose claim's token is {@code token}. */
    boolean in(String runId, String token) {
        if (!ordinal) {
            return run.equals(runId);
        }
        OptionalLong claim = RunLock.ordinal(token);
        return claim.isPresent() && claim.getAsLong() == Long.parseLong(run, Character.MAX_RADIX);
    }
}
