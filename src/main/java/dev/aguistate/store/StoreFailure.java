package dev.aguistate.store;

/**
 * Why a store call failed, when the store knows: the closed set of failures that {@link ThreadStore} callers
 * tell apart. Each says whether anything was written.
 */
public abstract sealed class StoreFailure extends RuntimeException
        permits VersionConflict, ThreadTooLarge, StoreUnavailable {

    StoreFailure(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
