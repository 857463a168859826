package dev.aguistate.llm.wiring;

import dev.aguistate.llm.LlmConfig;
import dev.aguistate.llm.OpenAiCompatibleModel;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.llm.TokenEstimator;
import dev.aguistate.llm.demo.ScriptedDemoModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * Chooses the model: the configured OpenAI-compatible endpoint, or the scripted demo when none is configured and
 * {@code agui.llm.demo.enabled} allows it.
 */
public class ModelProducer {

    private static final Logger LOG = Logger.getLogger(ModelProducer.class);

    /** Created at start-up, so the choice (and the demo-model warning) is the first thing in the log. */
    @Produces
    @ApplicationScoped
    @Startup
    StreamingModel model(LlmConfig config, Vertx vertx, MeterRegistry meters) {
        if (config.endpointConfigured()) {
            OpenAiCompatibleModel model = new OpenAiCompatibleModel(config, vertx, meters);
            LOG.infof("LLM: %s at %s", model.description().model(), model.description().baseUrl());
            return model;
        }
        if (!config.demo().enabled()) {
            throw new IllegalStateException("No LLM configured: set agui.llm.api-key and/or agui.llm.base-url (an"
                    + " OpenAI-compatible endpoint), or agui.llm.demo.enabled=true for the scripted demo model");
        }
        LOG.warn("""

                ************************************************************************
                *  NO LLM CONFIGURED: answering with the SCRIPTED DEMO MODEL.           *
                *  Its replies are canned. Set AGUI_LLM_API_KEY (and AGUI_LLM_BASE_URL  *
                *  for Ollama, vLLM, Azure, ...) to use a real model.                  *
                ************************************************************************""");
        return new ScriptedDemoModel(config.demo().chunkDelay());
    }

    /** The model's token counter, made at start-up: loading its vocabulary takes a second or two. */
    @Produces
    @Singleton
    @Startup
    TokenEstimator tokenEstimator(StreamingModel model) {
        return TokenEstimator.forModel(model.description().model());
    }
}
