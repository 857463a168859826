package dev.aguistate.mutiny;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.helpers.Subscriptions;
import io.smallrye.mutiny.operators.multi.AbstractMultiOperator;
import io.smallrye.mutiny.subscription.MultiSubscriber;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * Each item of a stream becomes the items a function adds to a list for it (none, one or several), in order: what
 * {@code onItem().transformToIterable} does, for the stages every event of a run passes.
 *
 * <p>Why not that operator: it makes a stream, its subscription and an iterator per item, and Quarkus's context
 * propagation wraps both its function and its inner one in a context restore paid per item (see
 * {@link DirectSubscriber}). Here the function is called as it is, into one list the expansion keeps.
 *
 * <p>Demand is honoured: one item is asked of the upstream at a time, once the downstream wants more and the last
 * one's items are all passed on. The function runs where the items are passed on, one call at a time (on the thread
 * that delivered the item, or on one that asked for more). A failure of the upstream, or of the function (which
 * cancels the upstream), ends the stream at once, as {@code transformToIterable}'s does; completion waits until
 * every item is passed on.
 */
public final class DirectExpansion<I, O> extends AbstractMultiOperator<I, O> {

    private final BiConsumer<? super I, List<O>> expand;

    private DirectExpansion(Multi<I> upstream, BiConsumer<? super I, List<O>> expand) {
        super(upstream);
        this.expand = expand;
    }

    /** {@code source}'s items, each replaced by what {@code expand} adds to the list it is given. */
    public static <I, O> Multi<O> of(Multi<I> source, BiConsumer<? super I, List<O>> expand) {
        return new DirectExpansion<>(source, expand);
    }

    @Override
    public void subscribe(MultiSubscriber<? super O> downstream) {
        upstream.subscribe().withSubscriber(new Expanding<I, O>(downstream, expand));
    }

    /**
     * The signals that change what is to be passed on (an item arrived, demand, the upstream ended, a cancellation)
     * each run {@link #drain}, of which one runs at a time: a signal arriving while another thread drains leaves it
     * to that thread ({@link #wip}). The fields without a lock or volatile are the draining thread's alone.
     */
    private static final class Expanding<I, O> implements MultiSubscriber<I>, Flow.Subscription {

        private final MultiSubscriber<? super O> downstream;
        private final BiConsumer<? super I, List<O>> expand;
        private final AtomicReference<Flow.Subscription> upstream = new AtomicReference<>();
        private final AtomicLong requested = new AtomicLong();
        private final AtomicInteger wip = new AtomicInteger();
        /** The upstream item not yet expanded: at most one, since one is asked for at a time. */
        private final AtomicReference<I> arrived = new AtomicReference<>();
        /** The last item's expansion, passed on from {@link #next}. */
        private final List<O> expanded = new ArrayList<>(4);
        private int next;
        /** An upstream item was asked for and has not arrived. */
        private boolean asked;
        private boolean terminated;
        /** Written before {@link #upstreamEnded}. */
        private Throwable failure;
        private volatile boolean upstreamEnded;
        private volatile boolean cancelled;

        Expanding(MultiSubscriber<? super O> downstream, BiConsumer<? super I, List<O>> expand) {
            this.downstream = downstream;
            this.expand = expand;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            if (upstream.compareAndSet(null, subscription)) {
                downstream.onSubscribe(this);
            } else {
                subscription.cancel();
            }
        }

        @Override
        public void onItem(I item) {
            arrived.set(item);
            drain();
        }

        @Override
        public void onFailure(Throwable error) {
            failure = error;
            upstreamEnded = true;
            drain();
        }

        @Override
        public void onCompletion() {
            upstreamEnded = true;
            drain();
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                cancel();
                downstream.onFailure(Subscriptions.getInvalidRequestException());
                return;
            }
            Subscriptions.add(requested, n);
            drain();
        }

        @Override
        public void cancel() {
            cancelled = true;
            Subscriptions.cancel(upstream);
            drain();
        }

        private void drain() {
            if (wip.getAndIncrement() != 0) {
                return;
            }
            int missed = 1;
            while (!terminated) {
                if (cancelled) {
                    terminated = true; // nothing more is passed on; the wip left above zero keeps it so
                    expanded.clear();
                    arrived.set(null);
                    return;
                }
                if (upstreamEnded && failure != null) {
                    fail(failure);
                    return;
                }
                if (next == expanded.size() && !expandArrived()) {
                    return;
                }
                long demand = requested.get();
                long passed = 0;
                while (passed < demand && next < expanded.size() && !cancelled) {
                    downstream.onItem(expanded.get(next++));
                    passed++;
                }
                if (passed > 0) {
                    Subscriptions.produced(requested, passed);
                }
                boolean ended = upstreamEnded; // read first: what the upstream sent before it ended is seen then
                if (next == expanded.size() && arrived.get() == null) {
                    if (ended) {
                        if (failure != null) {
                            fail(failure);
                        } else {
                            terminated = true;
                            downstream.onCompletion();
                        }
                        return;
                    }
                    if (!asked && requested.get() > 0 && !cancelled) {
                        asked = true;
                        upstream.get().request(1);
                    }
                }
                missed = wip.addAndGet(-missed);
                if (missed == 0) {
                    return;
                }
            }
        }

        /** Expands the item that arrived, if one did; false when the function failed (the stream has ended). */
        private boolean expandArrived() {
            I item = arrived.getAndSet(null);
            if (item == null) {
                return true;
            }
            asked = false;
            expanded.clear();
            next = 0;
            try {
                expand.accept(item, expanded);
            } catch (Throwable error) {
                Subscriptions.cancel(upstream);
                fail(error);
                return false;
            }
            return true;
        }

        private void fail(Throwable error) {
            terminated = true;
            expanded.clear();
            downstream.onFailure(error);
        }
    }
}
