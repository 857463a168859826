package dev.aguistate.llm;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.jdk.JdkHttpClient;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.CompleteToolCall;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.model.output.TokenUsage;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.MultiEmitter;
import java.time.Duration;

/**
 * Any OpenAI-compatible chat completions endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp, LM Studio)
 * through langchain4j's streaming client.
 *
 * <p>Each call gets its own lightweight langchain4j model bound to an {@link UpstreamCall}, over one shared
 * JDK HTTP client, so that cancelling the stream (client gone, idle timeout) really aborts the upstream request.
 * {@code timeout()} in langchain4j only bounds the wait for headers, hence the separate idle timeout.
 */
final class OpenAiCompatibleModel implements StreamingModel {

    static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

    private final LlmConfig config;
    private final HttpClient sharedHttp;
    private final ModelDescription description;

    OpenAiCompatibleModel(LlmConfig config) {
        this.config = config;
        this.sharedHttp = JdkHttpClient.builder()
                .httpClientBuilder(java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1))
                .connectTimeout(config.connectTimeout())
                .readTimeout(config.responseTimeout())
                .build();
        this.description = new ModelDescription(ModelDescription.OPENAI_COMPATIBLE, "openai", config.model(),
                config.baseUrl().orElse(DEFAULT_BASE_URL));
    }

    @Override
    public ModelDescription description() {
        return description;
    }

    @Override
    public Multi<ModelEvent> stream(ChatRequest request) {
        Duration idle = config.idleTimeout();
        return Multi.createFrom().<ModelEvent>emitter(emitter -> {
                    UpstreamCall call = new UpstreamCall();
                    emitter.onCancellation(call::cancel);
                    try {
                        modelFor(call).chat(request, new Handler(emitter, call));
                    } catch (RuntimeException e) {
                        // langchain4j validates some parameters synchronously, before streaming starts
                        emitter.fail(ModelFailures.classify(e));
                    }
                })
                .ifNoItem().after(idle).failWith(() -> new ModelFailure(ModelFailure.Kind.IDLE_TIMEOUT, null));
    }

    private OpenAiStreamingChatModel modelFor(UpstreamCall call) {
        OpenAiStreamingChatModel.OpenAiStreamingChatModelBuilder builder = OpenAiStreamingChatModel.builder()
                .httpClientBuilder(CancellableHttpClient.builderFor(sharedHttp, call))
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

    /** Forwards langchain4j callbacks (on a JDK HTTP client thread) to the emitter. */
    private static final class Handler implements StreamingChatResponseHandler {

        private final MultiEmitter<? super ModelEvent> emitter;
        private final UpstreamCall call;

        Handler(MultiEmitter<? super ModelEvent> emitter, UpstreamCall call) {
            this.emitter = emitter;
            this.call = call;
        }

        @Override
        public void onPartialResponse(String text) {
            if (!text.isEmpty()) {
                emitter.emit(new ModelEvent.TextDelta(text));
            }
        }

        @Override
        public void onPartialThinking(PartialThinking thinking) {
            if (thinking.text() != null && !thinking.text().isEmpty()) {
                emitter.emit(new ModelEvent.ReasoningDelta(thinking.text()));
            }
        }

        @Override
        public void onPartialToolCall(PartialToolCall partial) {
            emitter.emit(new ModelEvent.ToolCallDelta(partial.index(), partial.id(), partial.name(),
                    partial.partialArguments()));
        }

        @Override
        public void onCompleteToolCall(CompleteToolCall complete) {
            var request = complete.toolExecutionRequest();
            emitter.emit(new ModelEvent.ToolCallCompleted(complete.index(), request.id(), request.name(),
                    request.arguments()));
        }

        @Override
        public void onCompleteResponse(ChatResponse response) {
            TokenUsage usage = response.tokenUsage();
            emitter.emit(new ModelEvent.Completed(usage == null ? null : new ModelUsage(response.modelName(),
                    usage.inputTokenCount(), usage.outputTokenCount(), usage.totalTokenCount())));
            emitter.complete();
        }

        @Override
        public void onError(Throwable error) {
            // langchain4j may keep streaming after an error (e.g. one malformed chunk); the first error ends it.
            call.cancel();
            // After the client left, closing the upstream body makes langchain4j report an error nobody waits
            // for; failing the cancelled emitter would only make Mutiny log it as dropped.
            if (!emitter.isCancelled()) {
                emitter.fail(ModelFailures.classify(error));
            }
        }
    }
}
