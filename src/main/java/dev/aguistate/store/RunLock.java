package dev.aguistate.store;

import java.util.OptionalLong;
import java.util.UUID;

/**
 * Proof that this replica runs the thread now, for the run {@code runId}; {@code token} tells its holder apart from
 * a later one, and names the run's event log ({@link RunEventLog}). The claim is its owner's: it is found by the
 * thread's {@link ThreadKey}, so it names whose run it is.
 *
 * <p>A token is {@code <ordinal>.<uuid>}: the ordinal numbers the store's claims (each store counts them where it
 * keeps its threads, and never gives a number twice), so a short reference to a run ({@link #ordinal(String)}) can
 * never be confused with another run's. Tokens minted before the ordinal (a bare UUID) have none.
 */
public record RunLock(ThreadKey thread, String runId, String token) {

    /** A new claim's token, the {@code ordinal}-th claim its store gave. */
    public static String token(long ordinal) {
        return ordinal + afterOrdinal();
    }

    /**
     * What follows the ordinal in a new claim's token: for a store that numbers a claim where it takes it, in the
     * same step ({@code ordinal + afterOrdinal()} is the token).
     */
    public static String afterOrdinal() {
        return "." + UUID.randomUUID();
    }

    /** The ordinal a token (a claim's, or the key of a run's log) carries; empty for a token minted without one. */
    public static OptionalLong ordinal(String token) {
        int dot = token.indexOf('.');
        if (dot <= 0) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(token, 0, dot, 10));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    public String threadId() {
        return thread.threadId();
    }

    /** The owner's key of the thread, and so of the run. */
    public String owner() {
        return thread.owner();
    }
}
