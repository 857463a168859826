package dev.aguistate.http;

import dev.aguistate.llm.ModelDescription;
import dev.aguistate.llm.StreamingModel;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness reports which model answers. It stays UP with the scripted demo model (the server works), but
 * says {@code llmConfigured=false} so a deployment check can insist on a real endpoint.
 */
@Readiness
public class LlmReadinessCheck implements HealthCheck {

    private final StreamingModel model;

    LlmReadinessCheck(StreamingModel model) {
        this.model = model;
    }

    @Override
    public HealthCheckResponse call() {
        ModelDescription description = model.description();
        var response = HealthCheckResponse.named("llm")
                .up()
                .withData("llmConfigured", !description.scripted())
                .withData("kind", description.kind())
                .withData("model", description.model());
        if (description.baseUrl() != null) {
            response.withData("baseUrl", description.baseUrl());
        }
        return response.build();
    }
}
