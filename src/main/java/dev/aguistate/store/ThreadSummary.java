package dev.aguistate.store;

import java.time.Instant;
import java.util.Comparator;

/**
 * A thread in a listing: everything but its state and messages.
 *
 * @param lastRun the latest run that ended, and how; null before one did
 */
public record ThreadSummary(String threadId, String agent, long version, int messageCount, Instant createdAt,
                            Instant updatedAt, ThreadInfo info, RunRecord lastRun) {

    public ThreadSummary {
        info = info == null ? ThreadInfo.EMPTY : info;
    }

    /** The order of listings: most recently updated first, ties broken by thread id. */
    public static final Comparator<ThreadSummary> NEWEST_FIRST = Comparator.comparing(ThreadSummary::updatedAt)
            .reversed().thenComparing(ThreadSummary::threadId);
}
