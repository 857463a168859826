package dev.aguistate.http;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.tools.BackendTool;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The agent {@code gated}, whose tool {@code pass_gate} waits until the test opens the gate: a test can act while a
 * run is between its rounds (its claim and load done, its commit to come).
 */
public class GatedAgent {

    static final String NAME = "gated";
    static final String APPROVAL = "gated-approval";
    static final String TOOL = "pass_gate";
    private static final long MAX_WAIT_SECONDS = 30;

    private static volatile CountDownLatch reached = new CountDownLatch(1);
    private static volatile CountDownLatch opened = new CountDownLatch(1);

    /** Closes the gate before the next run. */
    static void close() {
        reached = new CountDownLatch(1);
        opened = new CountDownLatch(1);
    }

    /** Waits until a run's tool waits at the gate. */
    static void awaitReached() throws InterruptedException {
        if (!reached.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("no run reached the gate");
        }
    }

    static void open() {
        opened.countDown();
    }

    @Produces
    @Singleton
    AgentDefinition gated() {
        return AgentDefinition.builder(NAME).description("test agent whose tool waits for the test").tool(gate())
                .build();
    }

    /** The agent {@code gated-approval}: the same tool, run only once the user approved the call. */
    @Produces
    @Singleton
    AgentDefinition gatedApproval() {
        return AgentDefinition.builder(APPROVAL).description("test agent whose tool waits for approval, then the test")
                .tool(gate()).requireConfirmation(TOOL).build();
    }

    private static BackendTool gate() {
        return BackendTool.builder(TOOL).description("Wait at the gate").handler((args, context) -> {
            reached.countDown();
            return opened.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS) ? "passed" : "the gate stayed closed";
        });
    }
}
