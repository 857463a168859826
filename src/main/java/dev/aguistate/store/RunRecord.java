package dev.aguistate.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * A run as its thread remembers it: which run, the key of its event log, when it started and, once it ended,
 * when and how ({@code success}, {@code interrupt}, {@code cancelled} or a {@code RUN_ERROR} code).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunRecord(String runId, String key, Instant startedAt, Instant endedAt, String outcome) {

    public static RunRecord started(String runId, String key, Instant startedAt) {
        return new RunRecord(runId, key, startedAt, null, null);
    }

    public RunRecord ended(Instant at, String how) {
        return new RunRecord(runId, key, startedAt, at, how);
    }
}
