package dev.aguistate.mutiny;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * At most {@code limit} of its calls run at once; the others wait their turn, in order, holding no thread. For
 * work that many clients may ask for at the same moment: each call costs what it costs, but a burst of them neither
 * takes every worker thread (which would leave the event loops a sliver of the CPU) nor overflows a client's queue.
 * A call whose caller cancels it is cancelled, or never started if it still waits. Meant for asynchronous calls (a
 * call that ends before it returns starts the next waiting one within it). Thread-safe.
 */
public final class BoundedConcurrency {

    private final int limit;
    /** The calls waiting for their turn; guarded by itself, as is {@link #running}. */
    private final Queue<Runnable> waiting = new ArrayDeque<>();
    private int running;

    public BoundedConcurrency(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("at least one call must run: " + limit);
        }
        this.limit = limit;
    }

    /** {@code call}'s answer, once fewer than {@code limit} others run; {@code call} is made then. */
    public <T> Uni<T> run(Supplier<Uni<T>> call) {
        return Uni.createFrom().emitter(emitter -> {
            AtomicBoolean cancelled = new AtomicBoolean();
            AtomicReference<Cancellable> started = new AtomicReference<>();
            emitter.onTermination(() -> {
                cancelled.set(true); // after the answer too: then there is nothing left to cancel
                Cancellable running = started.get();
                if (running != null) {
                    running.cancel();
                }
            });
            Runnable start = () -> {
                if (cancelled.get()) {
                    finished();
                    return;
                }
                started.set(call.get().onTermination().invoke(this::finished).subscribe()
                        .with(emitter::complete, emitter::fail));
                if (cancelled.get()) {
                    started.get().cancel();
                }
            };
            boolean now;
            synchronized (waiting) {
                now = running < limit;
                if (now) {
                    running++;
                } else {
                    waiting.add(start);
                }
            }
            if (now) {
                start.run();
            }
        });
    }

    /** A call ended: the next waiting one starts, in its place. */
    private void finished() {
        Runnable next;
        synchronized (waiting) {
            next = waiting.poll();
            if (next == null) {
                running--;
            }
        }
        if (next != null) {
            next.run();
        }
    }
}
