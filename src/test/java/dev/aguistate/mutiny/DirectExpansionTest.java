package dev.aguistate.mutiny;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.smallrye.mutiny.subscription.MultiSubscriber;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class DirectExpansionTest {

    /** "x" becomes "x1", "x2"; "none" becomes nothing; "bad" fails. */
    private static final BiConsumer<String, List<String>> TWICE = (item, out) -> {
        if (item.equals("bad")) {
            throw new IllegalStateException("cannot expand " + item);
        }
        if (!item.equals("none")) {
            out.add(item + "1");
            out.add(item + "2");
        }
    };

    /** An upstream that emits what the test says, and fails a test that emits more than was asked of it. */
    private final AtomicReference<MultiEmitter<? super String>> upstream = new AtomicReference<>();
    private final Multi<String> source = Multi.createFrom().<String>emitter(upstream::set, BackPressureStrategy.ERROR);

    private AssertSubscriber<String> subscribe(long initialDemand) {
        return DirectExpansion.of(source, TWICE).subscribe().withSubscriber(AssertSubscriber.create(initialDemand));
    }

    @Test
    void eachItemBecomesItsExpansionInOrderThenTheStreamCompletes() {
        AssertSubscriber<String> out = subscribe(Long.MAX_VALUE);
        upstream.get().emit("a").emit("none").emit("b").complete();

        out.assertCompleted();
        assertEquals(List.of("a1", "a2", "b1", "b2"), out.getItems());
    }

    @Test
    void theDownstreamsDemandIsHonouredAndOneItemIsAskedOfTheUpstreamAtATime() {
        AssertSubscriber<String> out = subscribe(0);
        assertEquals(0, upstream.get().requested(), "nothing wanted, nothing asked");

        out.request(1);
        assertEquals(1, upstream.get().requested());
        upstream.get().emit("a");
        assertEquals(List.of("a1"), out.getItems());
        assertEquals(0, upstream.get().requested(), "a2 waits: nothing more is asked");

        out.request(1);
        assertEquals(List.of("a1", "a2"), out.getItems());
        assertEquals(0, upstream.get().requested(), "the demand was met: nothing more is asked");

        out.request(5);
        assertEquals(1, upstream.get().requested(), "one item at a time, whatever the demand");
        upstream.get().emit("none");
        assertEquals(1, upstream.get().requested(), "an item that expands to nothing asks for the next");
        upstream.get().emit("b");
        assertEquals(List.of("a1", "a2", "b1", "b2"), out.getItems());
        assertEquals(1, upstream.get().requested());
    }

    @Test
    void completionWaitsUntilEveryItemIsPassedOn() {
        AssertSubscriber<String> out = subscribe(1);
        upstream.get().emit("a").complete();

        assertEquals(List.of("a1"), out.getItems());
        assertFalse(out.hasCompleted());
        out.request(1);
        assertEquals(List.of("a1", "a2"), out.getItems());
        out.assertCompleted();
    }

    @Test
    void anUpstreamFailureEndsTheStreamAtOnce() {
        AssertSubscriber<String> out = subscribe(1);
        IllegalStateException failure = new IllegalStateException("upstream failed");
        upstream.get().emit("a").fail(failure);

        assertSame(failure, out.getFailure());
        assertEquals(List.of("a1"), out.getItems());
    }

    @Test
    void aFailingExpansionCancelsTheUpstreamAndFailsTheStream() {
        AssertSubscriber<String> out = subscribe(Long.MAX_VALUE);
        upstream.get().emit("a").emit("bad");

        out.assertFailedWith(IllegalStateException.class, "cannot expand bad");
        assertEquals(List.of("a1", "a2"), out.getItems());
        assertTrue(upstream.get().isCancelled());
    }

    @Test
    void cancellingCancelsTheUpstreamAndPassesNothingMore() {
        AssertSubscriber<String> out = subscribe(1);
        upstream.get().emit("a");
        out.cancel();

        assertTrue(upstream.get().isCancelled());
        out.request(1);
        assertEquals(List.of("a1"), out.getItems());
        assertFalse(out.hasCompleted());
    }

    /** Items arrive on one thread while the demand comes in small steps from another: each passes once, in order. */
    @Test
    void itemsFromOneThreadAndDemandFromAnotherPassOnceEachInOrder() throws InterruptedException {
        ExecutorService delivering = Executors.newSingleThreadExecutor();
        try {
            int items = 100_000;
            List<Integer> passed = Collections.synchronizedList(new ArrayList<>());
            Semaphore arrived = new Semaphore(0);
            CountDownLatch completed = new CountDownLatch(1);
            AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
            DirectExpansion.<Integer, Integer>of(Multi.createFrom().range(0, items).emitOn(delivering), (i, out) -> {
                out.add(2 * i);
                out.add(2 * i + 1);
            }).subscribe().withSubscriber(new MultiSubscriber<Integer>() {
                @Override
                public void onSubscribe(Flow.Subscription given) {
                    subscription.set(given);
                }

                @Override
                public void onItem(Integer item) {
                    passed.add(item);
                    arrived.release();
                }

                @Override
                public void onFailure(Throwable failure) {
                    passed.add(null);
                }

                @Override
                public void onCompletion() {
                    completed.countDown();
                }
            });
            int wanted = 0;
            int seen = 0;
            while (wanted < 2 * items) { // each step races the delivery of what the steps before asked for
                int more = Math.min(ThreadLocalRandom.current().nextInt(1, 4), 2 * items - wanted);
                subscription.get().request(more);
                wanted += more;
                if (wanted - seen >= 64) { // now and then all asked for so far arrives, and the race starts again
                    assertTrue(arrived.tryAcquire(wanted - seen, 10, TimeUnit.SECONDS), "what was asked for arrives");
                    seen = wanted;
                }
            }
            assertTrue(completed.await(10, TimeUnit.SECONDS));
            assertEquals(IntStream.range(0, 2 * items).boxed().toList(), passed);
        } finally {
            delivering.shutdownNow();
        }
    }
}
