package dev.aguistate.mutiny;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class BoundedConcurrencyTest {

    private final List<String> started = new ArrayList<>();
    private final List<UniEmitter<? super String>> running = new ArrayList<>();

    /** A call that starts when subscribed and answers when the test says so. */
    private Uni<String> call(String name) {
        return Uni.createFrom().emitter(emitter -> {
            started.add(name);
            running.add(emitter);
        });
    }

    @Test
    void atMostTheLimitRunAndTheOthersStartInOrderAsTheyEnd() {
        BoundedConcurrency bounded = new BoundedConcurrency(2);
        List<UniAssertSubscriber<String>> answers = new ArrayList<>();
        for (String name : List.of("a", "b", "c", "d")) {
            answers.add(bounded.run(() -> call(name)).subscribe().withSubscriber(UniAssertSubscriber.create()));
        }

        assertEquals(List.of("a", "b"), started);
        running.get(1).complete("B");
        assertEquals(List.of("a", "b", "c"), started);
        running.get(0).fail(new IllegalStateException("A failed"));
        assertEquals(List.of("a", "b", "c", "d"), started);

        answers.get(1).assertItem("B");
        answers.get(0).assertFailedWith(IllegalStateException.class, "A failed");
        answers.get(2).assertNotTerminated();
    }

    @Test
    void aCallCancelledWhileWaitingNeverStartsAndACancelledRunningOneMakesRoom() {
        BoundedConcurrency bounded = new BoundedConcurrency(1);
        UniAssertSubscriber<String> first = bounded.run(() -> call("a")).subscribe()
                .withSubscriber(UniAssertSubscriber.create());
        UniAssertSubscriber<String> second = bounded.run(() -> call("b")).subscribe()
                .withSubscriber(UniAssertSubscriber.create());
        UniAssertSubscriber<String> third = bounded.run(() -> call("c")).subscribe()
                .withSubscriber(UniAssertSubscriber.create());

        second.cancel();
        first.cancel();

        assertEquals(List.of("a", "c"), started);
        running.get(1).complete("C");
        third.assertItem("C");
    }
}
