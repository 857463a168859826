package dev.aguistate.run;

import dev.aguistate.protocol.RunAgentInput;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Where runs get their OpenTelemetry spans: one {@link RunTrace} per run. With the OpenTelemetry SDK disabled (the
 * default, {@code quarkus.otel.sdk.disabled=true}) the tracer is a no-op and a run's spans cost next to nothing.
 */
@ApplicationScoped
public class RunTracing {

    private final Tracer tracer;
    private final boolean captureContent;

    @Inject
    RunTracing(Tracer tracer, TracingConfig config) {
        this(tracer, config.captureContent());
    }

    RunTracing(Tracer tracer, boolean captureContent) {
        this.tracer = tracer;
        this.captureContent = captureContent;
    }

    /** Starts the run's span as a child of {@code parent} (the request's trace, when it came with one). */
    RunTrace start(String agent, RunAgentInput input, String provider, Context parent) {
        return new RunTrace(tracer, captureContent, agent, input, provider, parent);
    }
}
