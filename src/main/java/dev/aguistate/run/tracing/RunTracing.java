package dev.aguistate.run.tracing;

import dev.aguistate.protocol.RunAgentInput;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Where runs get their OpenTelemetry spans: one {@link RunTrace} per run. With the OpenTelemetry SDK disabled (the
 * default, {@code quarkus.otel.sdk.disabled=true}) runs get the no-op tracer: Quarkus's own {@code Tracer} bean still
 * made recording, sampled spans then (measured: RUN_STARTED named a trace on a server with tracing off), so the
 * switch is read here rather than trusted to the bean.
 */
@ApplicationScoped
@Startup
public class RunTracing {

    private final Tracer tracer;
    private final boolean captureContent;

    @Inject
    public RunTracing(Tracer tracer, TracingConfig config,
               @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false") boolean sdkDisabled) {
        this(sdkDisabled ? OpenTelemetry.noop().getTracer("agui-state-server") : tracer, config.captureContent());
    }

    public RunTracing(Tracer tracer, boolean captureContent) {
        this.tracer = tracer;
        this.captureContent = captureContent;
    }

    /** Starts the run's span as a child of {@code parent} (the request's trace, when it came with one). */
    public RunTrace start(String agent, RunAgentInput input, String provider, Context parent) {
        return new RunTrace(tracer, captureContent, agent, input, provider, parent);
    }
}
