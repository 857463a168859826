package dev.aguistate.testing;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Independent pieces of a test class's work (conversations on threads of their own, say) that wait mostly for the
 * server, started together so that the class waits for the longest of them rather than for their sum; each test
 * awaits its own piece and fails as that piece failed. Not JUnit's parallel execution, which {@code @QuarkusTest}
 * does not support: the tests still run one after the other.
 */
public final class SideBySide {

    /** Work that may fail as a test does, with an assertion or any exception. */
    @FunctionalInterface
    public interface Work<T> {
        T call() throws Exception;
    }

    private static final ExecutorService THREADS = Executors.newCachedThreadPool(SideBySide::daemon);

    private SideBySide() {}

    /** Starts the work on a thread of its own. */
    public static <T> CompletableFuture<T> start(Work<T> work) {
        return start(work, THREADS);
    }

    /**
     * Starts each piece of work in the list's order, at most {@code atOnce} at a time: for work that takes a core
     * while it runs, or that must not all start in the same instant (each burst of processes on a loaded machine
     * delays the others' start).
     */
    public static <T> List<CompletableFuture<T>> start(int atOnce, List<Work<T>> works) {
        ExecutorService lanes = Executors.newFixedThreadPool(atOnce, SideBySide::daemon);
        List<CompletableFuture<T>> started = works.stream().map(work -> start(work, lanes)).toList();
        lanes.shutdown(); // once the work is done
        return started;
    }

    private static <T> CompletableFuture<T> start(Work<T> work, ExecutorService threads) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return work.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, threads);
    }

    private static Thread daemon(Runnable runnable) {
        Thread thread = new Thread(runnable, "side-by-side");
        thread.setDaemon(true);
        return thread;
    }

    /** What the work returned, or what it failed with (an {@link AssertionError}, say), thrown as it was. */
    public static <T> T await(CompletableFuture<T> work) throws Exception {
        try {
            return work.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e.getCause() instanceof Exception failure ? failure : e;
        }
    }
}
