package dev.aguistate.llm;

import dev.aguistate.testing.OpenAiStub;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The real {@link OpenAiCompatibleModel} (langchain4j over our Vert.x transport) against an {@link OpenAiStub}, for
 * plain JUnit tests. One event loop, as on a small server: every exchange shares it. Configuration is read through
 * SmallRye Config with Quarkus's duration format, so defaults are the documented ones.
 */
final class StubbedModel implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(10);

    final OpenAiStub stub = OpenAiStub.start();
    final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final OpenAiCompatibleModel model;

    /** @param config {@code agui.llm.*} overrides as name, value, ..., e.g. {@code "idle-timeout", "300ms"} */
    StubbedModel(String... config) {
        this(UnaryOperator.identity(), config);
    }

    /** @param transport what langchain4j sends through, given the model's HTTP client */
    StubbedModel(UnaryOperator<HttpClient> transport, String... config) {
        Map<String, String> properties = new HashMap<>(Map.of(
                "agui.llm.base-url", stub.baseUrl(),
                "agui.llm.api-key", "test-key",
                "agui.llm.model", "gpt-test"));
        for (int i = 0; i < config.length; i += 2) {
            properties.put("agui.llm." + config[i], config[i + 1]);
        }
        LlmConfig llm = new SmallRyeConfigBuilder()
                .withMapping(LlmConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter()) // Quarkus's "10s" form
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build()
                .getConfigMapping(LlmConfig.class);
        model = new OpenAiCompatibleModel(llm, vertx, meters, transport);
    }

    /** Streams a one-message conversation to a subscriber that has asked for {@code request} events. */
    AssertSubscriber<ModelEvent> stream(long request) {
        return model.stream(ChatRequest.builder().messages(UserMessage.from("hi")).build())
                .subscribe().withSubscriber(AssertSubscriber.create(request));
    }

    AssertSubscriber<ModelEvent> stream() {
        return stream(Long.MAX_VALUE);
    }

    /** How often a call was tried again for this reason ({@code agui.llm.retries}). */
    double retries(String reason) {
        Counter counter = meters.find("agui.llm.retries").tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }

    /** The failure a stream ended with, which must be a {@link ModelFailure}. */
    static ModelFailure.Kind failureOf(AssertSubscriber<ModelEvent> subscriber) {
        subscriber.awaitFailure(WAIT);
        if (subscriber.getFailure() instanceof ModelFailure failure) {
            return failure.kind();
        }
        throw new AssertionError("not a ModelFailure", subscriber.getFailure());
    }

    @Override
    public void close() throws Exception {
        stub.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
}
