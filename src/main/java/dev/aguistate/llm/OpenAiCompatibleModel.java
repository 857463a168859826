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
import java.util.function.UnaryOperator;

/**
 * Any OpenAI-compatible chat completions endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp, LM Studio,
 * OpenRouter) through langchain4j's streaming client, which builds the requests; {@link StreamRelay} reads the
 * response's chunks (with {@link ChunkReader}: langchain4j's databinding of each chunk was the read path's largest
 * cost).
 *
 * <p>Under it, as its HTTP client, runs our non-blocking transport ({@link UpstreamHttp}, one {@link SseExchange}
 * per call), so no call holds a thread; cancelling the stream (client gone, run ended) closes the upstream
 * connection and the consumer's demand paces the reading. {@link StreamRelay} turns the chunks into
 * {@link ModelEvent}s.
 *
 * <p>One langchain4j model serves every call: building one costs two classpath scans for service providers, paid
 * again by every call that built its own (what that came to under load: docs/benchmarks.md, "Ours against a bare
 * SSE writer"). Each call's request carries the call's key to our HTTP client ({@link PendingCalls}), which hands
 * it to that call's exchange: nothing depends on which thread langchain4j sends from, or when.
 */
public final class OpenAiCompatibleModel implements StreamingModel {

    static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

    private final LlmConfig config;
    private final UpstreamHttp http;
    private final ModelDescription description;
    private final PendingCalls<OneCall> pending = new PendingCalls<>();
    private final OpenAiStreamingChatModel model;

    public OpenAiCompatibleModel(LlmConfig config, Vertx vertx, MeterRegistry meters) {
        this(config, vertx, meters, UnaryOperator.identity());
    }

    /** @param transport what langchain4j sends through, given our HTTP client (tests send from elsewhere) */
    OpenAiCompatibleModel(LlmConfig config, Vertx vertx, MeterRegistry meters, UnaryOperator<HttpClient> transport) {
        this.config = config;
        this.http = new UpstreamHttp(vertx, config, meters);
        this.description = new ModelDescription(ModelDescription.OPENAI_COMPATIBLE, "openai", config.model(),
                config.baseUrl().orElse(DEFAULT_BASE_URL));
        this.model = buildModel(transport.apply(new KeyedCallClient()));
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
            StreamRelay relay = new StreamRelay(emitter, exchange, config.logRequests());
            String key = pending.add(new OneCall(exchange, relay));
            emitter.onTermination(() -> pending.remove(key));
            try {
                model.chat(PendingCalls.carrying(request, key), relay);
            } catch (RuntimeException e) {
                // langchain4j validates some parameters synchronously, before streaming starts
                emitter.fail(ModelFailures.classify(e));
            }
        });
    }

    private OpenAiStreamingChatModel buildModel(HttpClient client) {
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

    /** The exchange of a call and the relay that reads its events. */
    private record OneCall(SseExchange exchange, StreamRelay relay) {}

    /**
     * The langchain4j HTTP client: a streaming request goes to the exchange of the call whose key it carries, with
     * its relay reading the events; a request of no waiting call fails through its own listener. langchain4j's
     * {@link ServerSentEventParser} reads a blocking {@code InputStream}, so it is not used: the exchange decodes
     * the events as the bytes arrive.
     */
    private final class KeyedCallClient implements HttpClient {

        @Override
        public void execute(HttpRequest request, ServerSentEventParser ignored, ServerSentEventListener listener) {
            PendingCalls.Sent<OneCall> sent;
            try {
                sent = pending.take(request);
            } catch (IllegalStateException noCall) {
                listener.onError(noCall);
                return;
            }
            sent.call().exchange().start(sent.request(), sent.body(), sent.call().relay().reading(listener));
        }

        /** A blocking call would hold a thread for its whole length, which this server never does. */
        @Override
        public SuccessfulHttpResponse execute(HttpRequest request) {
            throw new UnsupportedOperationException("only streaming requests are made to the LLM");
        }
    }

    /** Hands langchain4j our client; the timeouts are the transport's ({@link UpstreamHttp}). */
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
