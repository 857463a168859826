package dev.aguistate.http;

import dev.aguistate.llm.LlmConfig;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.run.RunConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The one {@link AgentCapabilities.ServerLimits} every answer that describes agents shows. */
public class ServerLimitsProducer {

    @Produces
    @Singleton
    AgentCapabilities.ServerLimits serverLimits(StreamingModel model, RunConfig runs, LlmConfig llm, HttpConfig http) {
        return AgentCapabilities.ServerLimits.of(model, runs, llm, http);
    }
}
