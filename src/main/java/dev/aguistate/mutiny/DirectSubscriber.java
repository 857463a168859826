package dev.aguistate.mutiny;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.helpers.Subscriptions;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.MultiSubscriber;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Subscribes to a stream with callbacks that are called as they are, for the stages every event of a run passes.
 *
 * <p>Why not {@code subscribe().with(...)}: Quarkus installs SmallRye Context Propagation into Mutiny, which wraps
 * every lambda given to an operator or to {@code subscribe().with} in a captured context that is restored around
 * each call. A run needs no request context per event, and under load those restores were a share of every frame's
 * CPU worth saving (docs/benchmarks.md, "Ours against a bare SSE writer"). Requests everything, as {@code with}
 * does.
 */
public final class DirectSubscriber<T> implements MultiSubscriber<T>, Cancellable {

    private final Consumer<? super T> onItem;
    private final Consumer<Throwable> onFailure;
    private final Runnable onCompletion;
    private final AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();

    private DirectSubscriber(Consumer<? super T> onItem, Consumer<Throwable> onFailure, Runnable onCompletion) {
        this.onItem = onItem;
        this.onFailure = onFailure;
        this.onCompletion = onCompletion;
    }

    /** Subscribes to {@code source}; the answer cancels the subscription. */
    public static <T> Cancellable subscribe(Multi<T> source, Consumer<? super T> onItem, Consumer<Throwable> onFailure,
                                            Runnable onCompletion) {
        DirectSubscriber<T> subscriber = new DirectSubscriber<>(onItem, onFailure, onCompletion);
        source.subscribe().withSubscriber(subscriber);
        return subscriber;
    }

    @Override
    public void onSubscribe(Flow.Subscription given) {
        if (subscription.compareAndSet(null, given)) {
            given.request(Long.MAX_VALUE);
        } else {
            given.cancel(); // cancelled before it was subscribed
        }
    }

    @Override
    public void onItem(T item) {
        onItem.accept(item);
    }

    @Override
    public void onFailure(Throwable failure) {
        onFailure.accept(failure);
    }

    @Override
    public void onCompletion() {
        onCompletion.run();
    }

    @Override
    public void cancel() {
        Subscriptions.cancel(subscription);
    }
}
