package dev.aguistate.llm;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Multi;
import io.vertx.core.Vertx;
import java.time.Duration;

/**
 * Any OpenAI-compatible chat completions endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp, LM Studio,
 * OpenRouter) through langchain4j's streaming client, which builds the requests and interprets the chunks.
 *
 * <p>Under it, as its HTTP client, runs our non-blocking transport ({@link UpstreamHttp}, one {@link SseExchange}
 * per call), so no call holds a thread. Each call gets its own lightweight langchain4j model bound to its
 * exchange, so that cancelling the stream (client gone, run ended) closes the upstream connection and the
 * consumer's demand paces the reading. {@link StreamRelay} turns langchain4j's callbacks into {@link ModelEvent}s.
 */
final class OpenAiCompatibleModel implements StreamingModel {

    static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

    private final LlmConfig config;
    private final UpstreamHttp http;
    private final ModelDescription description;

    OpenAiCompatibleModel(LlmConfig config, Vertx vertx, MeterRegistry meters) {
        this.config = config;
        this.http = new UpstreamHttp(vertx, config, meters);
        this.description = new ModelDescription(ModelDescription.OPENAI_COMPATIBLE, "openai", config.model(),
                config.baseUrl().orElse(DEFAULT_BASE_URL));
    }

    @Override
    public ModelDescription description() {
        return description;
    }

    @Override
    public Multi<ModelEvent> stream(ChatRequest request) {
        return Multi.createFrom().<ModelEvent>emitter(emitter -> {
            SseExchange exchange = http.exchange(() -> emitter.requested() > 0);
            emitter.onRequest(n -> exchange.demandArrived());
            emitter.onCancellation(exchange::cancel);
            StreamRelay relay = new StreamRelay(emitter, exchange);
            try {
                modelFor(new OneExchangeClient(exchange, relay)).chat(request, relay);
            } catch (RuntimeException e) {
                // langchain4j validates some parameters synchronously, before streaming starts
                emitter.fail(ModelFailures.classify(e));
            }
        });
    }

    private OpenAiStreamingChatModel modelFor(HttpClient client) {
        OpenAiStreamingChatModel.OpenAiStreamingChatModelBuilder builder = OpenAiStreamingChatModel.builder()
                .httpClientBuilder(new FixedClientBuilder(client))
                .baseUrl(description.baseUrl())
                .modelName(config.model())
                .customHeaders(config.headers())
                .customQueryParams(config.queryParams())
                .returnThinking(true)
                .logRequests(config.logRequests())
                .logResponses(config.logRequests());
        config.apiKey().ifPresent(builder::apiKey);
        config.temperature().ifPresent(builder::temperature);
        config.maxTokens().ifPresent(builder::maxTokens);
        config.parallelToolCalls().ifPresent(builder::parallelToolCalls);
        return builder.build();
    }

    /**
     * The langchain4j HTTP client of one call: its one streaming request is the call's exchange, with the relay
     * inspecting each event. langchain4j's {@link ServerSentEventParser} reads a blocking {@code InputStream}, so it
     * is not used: the exchange decodes the events as the bytes arrive.
     */
    private record OneExchangeClient(SseExchange exchange, StreamRelay relay) implements HttpClient {

        @Override
        public void execute(HttpRequest request, ServerSentEventParser ignored, ServerSentEventListener listener) {
            exchange.start(request, relay.inspecting(listener));
        }

        /** A blocking call would hold a thread for its whole length, which this server never does. */
        @Override
        public SuccessfulHttpResponse execute(HttpRequest request) {
            throw new UnsupportedOperationException("only streaming requests are made to the LLM");
        }
    }

    /** Hands langchain4j the call's client; the timeouts are the transport's ({@link UpstreamHttp}). */
    private record FixedClientBuilder(HttpClient client) implements HttpClientBuilder {

        @Override
        public Duration connectTimeout() {
            return null;
        }

        @Override
        public HttpClientBuilder connectTimeout(Duration timeout) {
            return this;
        }

        @Override
        public Duration readTimeout() {
            return null;
        }

        @Override
        public HttpClientBuilder readTimeout(Duration timeout) {
            return this;
        }

        @Override
        public HttpClient build() {
            return client;
        }
    }
}
