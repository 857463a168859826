package dev.aguistate.http;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.tools.BackendTool;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The agent {@code progressing}, whose tool {@code research} reports its progress, waits until the test lets it go
 * on, then reports {@link #STEPS} steps in a burst; and whose tool {@code list_sources} shows an activity of its own.
 */
public class ProgressingAgent {

    static final String NAME = "progressing";
    static final int STEPS = 20;
    private static final long MAX_WAIT_SECONDS = 30;

    private static volatile CountDownLatch goOn = new CountDownLatch(1);

    /** Makes the next call of research wait again. */
    static void hold() {
        goOn = new CountDownLatch(1);
    }

    static void letGo() {
        goOn.countDown();
    }

    @Produces
    @Singleton
    AgentDefinition progressing() {
        return AgentDefinition.builder(NAME)
                .description("test agent whose tools show their progress")
                .tool(BackendTool.builder("research").description("Research a topic").handler((args, context) -> {
                    context.progress(0, "Reading sources");
                    if (!goOn.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS)) {
                        return "the test never let it go on";
                    }
                    for (int step = 1; step <= STEPS; step++) {
                        context.progress((double) step / STEPS, "Source " + step + " of " + STEPS);
                    }
                    return "Found " + STEPS + " sources.";
                }))
                .tool(BackendTool.builder("list_sources").description("List sources").handler((args, context) -> {
                    context.activity("sources", AgUiJson.tree("{\"items\":[\"a\"]}"));
                    context.activity("sources", AgUiJson.tree("{\"items\":[\"a\",\"b\"]}"));
                    return "2 sources";
                }))
                .build();
    }
}
