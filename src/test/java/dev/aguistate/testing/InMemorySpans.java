package dev.aguistate.testing;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The spans the application exports, kept in memory for tests to read (Quarkus hands every {@code SpanExporter} bean
 * the finished spans). Spans are made only where a test profile turns the SDK on ({@code quarkus.otel.sdk.disabled}).
 */
@ApplicationScoped
public class InMemorySpans {

    @Produces
    @Singleton
    InMemorySpanExporter exporter() {
        return InMemorySpanExporter.create();
    }
}
