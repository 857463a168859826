package dev.aguistate.testing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** For tests that show a thread is not held up by what another one is doing, such as a write in progress. */
public final class OtherThread {

    private OtherThread() {}

    /**
     * Whether {@code action}, run on another thread, returns while this one waits (up to five seconds) for it: false
     * when it waits for something this thread holds.
     */
    public static boolean returnsMeanwhile(Runnable action) {
        try {
            CompletableFuture.runAsync(action).get(5, TimeUnit.SECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException | ExecutionException e) {
            throw new AssertionError(e);
        }
    }
}
