package dev.aguistate.run;

import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.EventType;
import dev.aguistate.llm.ModelUsage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Run metrics at {@code /q/metrics}: active runs, runs by outcome, errors by code, time to first token, events, tokens
 * per LLM call.
 */
@ApplicationScoped
@Startup
public class RunMetrics {

    private final MeterRegistry registry;
    private final AtomicInteger active;
    private final Timer firstToken;
    /** Registered once: counting an event is on the path of every frame. */
    private final Map<EventType, Counter> eventsSent = new EnumMap<>(EventType.class);
    /**
     * The meters of runs, errors and tokens by their tags, each looked up once: a Micrometer builder makes its id,
     * sorts its tags and hashes them on every {@code register}, three times a run (its end and its two token counts).
     */
    private final Map<List<String>, Counter> runsEnded = new ConcurrentHashMap<>();
    private final Map<String, Counter> errors = new ConcurrentHashMap<>();
    private final Map<List<String>, DistributionSummary> tokens = new ConcurrentHashMap<>();

    RunMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.active = registry.gauge("agui.runs.active", new AtomicInteger());
        this.firstToken = Timer.builder("agui.llm.time.to.first.token")
                .description("From sending a request to the LLM to its first streamed chunk")
                .publishPercentileHistogram()
                .register(registry);
        for (EventType type : EventType.values()) {
            eventsSent.put(type, Counter.builder("agui.events.sent").tag("type", type.name()).register(registry));
        }
    }

    void started() {
        active.incrementAndGet();
    }

    /** @param outcome success, waiting (for a frontend tool), error or cancelled */
    void ended(String agent, String outcome) {
        active.decrementAndGet();
        runsEnded.computeIfAbsent(List.of(agent, outcome), tags -> Counter.builder("agui.runs")
                .tag("agent", agent).tag("outcome", outcome).register(registry)).increment();
    }

    void event(AgUiEvent event) {
        eventsSent.get(event.type()).increment();
        if (event instanceof AgUiEvent.RunError error) {
            errors.computeIfAbsent(error.code(), code -> Counter.builder("agui.run.errors").tag("code", code)
                    .register(registry)).increment();
        }
    }

    void firstToken(Duration latency) {
        firstToken.record(latency);
    }

    /**
     * {@code gen_ai.client.token.usage} (the OpenTelemetry GenAI convention's histogram; without a base unit, so that
     * Prometheus shows it as {@code gen_ai_client_token_usage}): the input and output tokens of one LLM call, when the
     * upstream reports them.
     */
    void tokenUsage(String provider, String model, ModelUsage usage) {
        if (usage == null) {
            return;
        }
        tokens(provider, model, "input", usage.inputTokens());
        tokens(provider, model, "output", usage.outputTokens());
    }

    private void tokens(String provider, String model, String type, Integer count) {
        if (count != null) {
            tokens.computeIfAbsent(List.of(provider, model, type), tags ->
                    DistributionSummary.builder("gen_ai.client.token.usage")
                            .description("Tokens used by each LLM call, by type (input, output)")
                            .tag("gen_ai.operation.name", "chat").tag("gen_ai.provider.name", provider)
                            .tag("gen_ai.request.model", model).tag("gen_ai.token.type", type)
                            .register(registry)).record(count);
        }
    }
}
