package dev.aguistate.store;

import io.smallrye.mutiny.Uni;
import java.time.Duration;

/**
 * What a call to Redis or PostgreSQL becomes for its caller: an answer within {@code agui.store.timeout}, or a
 * {@link StoreUnavailable}, also for any failure that is not a {@link StoreFailure} already (a lost connection, a
 * server error).
 */
public final class StoreCalls {

    private StoreCalls() {}

    public static <T> Uni<T> timed(Uni<T> call, Duration timeout) {
        return call.ifNoItem().after(timeout)
                .failWith(() -> new StoreUnavailable("the store did not answer within " + timeout, null))
                .onFailure(failure -> !(failure instanceof StoreFailure))
                .transform(StoreCalls::unavailable);
    }

    /** {@code failure} as a {@link StoreFailure}: itself if it is one. */
    static StoreFailure unavailable(Throwable failure) {
        return failure instanceof StoreFailure known ? known
                : new StoreUnavailable("the store failed: " + failure, failure);
    }
}
