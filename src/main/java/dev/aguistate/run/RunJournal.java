package dev.aguistate.run;

import io.smallrye.mutiny.Uni;

/**
 * Where a run's progress is kept: the thread store. A run keeps a checkpoint when it starts (the request's new
 * messages), after each completed round of tools, and at its end; a run that fails or is stopped keeps what it
 * had completed (its tools' side effects really happened) and records how it ended.
 */
public interface RunJournal {

    /** Keeps what the run has completed so far; the run goes on. */
    Uni<Void> keep(RunProgress progress);

    /**
     * The run's last write: its final progress ({@code null}: nothing beyond the last checkpoint, as when it failed
     * or was stopped) and how it ended. A run that never kept a checkpoint writes nothing when it ends without
     * progress.
     */
    Uni<Void> end(RunProgress progress, RunEnd end);
}
