package dev.aguistate.run;

import io.smallrye.mutiny.Uni;
import java.util.concurrent.CompletableFuture;

/**
 * Stops one run from outside the run loop: a stop request (the stop endpoint, on any replica), the client leaving
 * when that stops its run, or the run's time limit. The first reason counts; later ones change nothing.
 */
public final class StopSwitch {

    /** Why a run was stopped: how it ends follows from it. */
    public enum Reason {
        /** Asked to stop, or its client left: it finishes {@code cancelled}. */
        REQUESTED,
        /** It ran for {@code agui.run.max-duration}: it fails with {@code max_duration_exceeded}. */
        TIME_LIMIT
    }

    private final CompletableFuture<Reason> stopped = new CompletableFuture<>();

    public void stop(Reason reason) {
        stopped.complete(reason);
    }

    Uni<Reason> stopped() {
        return Uni.createFrom().completionStage(stopped);
    }
}
