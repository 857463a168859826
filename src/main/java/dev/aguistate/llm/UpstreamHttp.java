package dev.aguistate.llm;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/**
 * The connection to the LLM endpoint, shared by all calls: Vert.x's non-blocking HTTP client with a pool of
 * keep-alive connections, the timeouts, the retry policy and the retry counter. Each call is an {@link SseExchange}.
 *
 * <p>A streaming call holds its HTTP/1.1 connection for its whole length, so the pools are sized for thousands of
 * concurrent calls ({@code agui.llm.max-connections}); connections are reused between calls.
 *
 * <p>One client per event loop, each used only from its loop, so that a call's connection lives on the event loop
 * of the run that made it: one shared pool lends a connection made on any loop, and every chunk it reads then
 * crosses to the run's loop as a task, a cost that grows with every event of every run (what it came to under load:
 * docs/benchmarks.md, "Ours against a bare SSE writer"). Each loop's pool gets an equal share of
 * {@code max-connections}.
 */
final class UpstreamHttp {

    private final VertxInternal vertx;
    private final HttpClientOptions clientOptions;
    private final PoolOptions poolOptions;
    private final Map<EventLoop, HttpClient> clients = new ConcurrentHashMap<>();
    private final long connectTimeoutMillis;
    private final Duration responseTimeout;
    private final Duration idleTimeout;
    private final RetryPolicy retryPolicy;
    private final Map<RetryPolicy.Reason, Counter> retries = new EnumMap<>(RetryPolicy.Reason.class);

    UpstreamHttp(Vertx vertx, LlmConfig config, MeterRegistry meters) {
        this.vertx = (VertxInternal) vertx;
        this.connectTimeoutMillis = config.connectTimeout().toMillis();
        this.responseTimeout = config.responseTimeout();
        this.idleTimeout = config.idleTimeout();
        this.retryPolicy = new RetryPolicy(config.maxRetries(), config.maxRetryWait(),
                () -> ThreadLocalRandom.current().nextDouble());
        this.clientOptions = new HttpClientOptions()
                .setName("agui-llm")
                .setProtocolVersion(HttpVersion.HTTP_1_1)
                .setKeepAlive(true)
                .setConnectTimeout((int) connectTimeoutMillis);
        int eventLoops = 0;
        for (EventExecutor ignored : this.vertx.getEventLoopGroup()) {
            eventLoops++;
        }
        this.poolOptions = new PoolOptions().setHttp1MaxSize(Math.max(1, config.maxConnections() / eventLoops));
        for (RetryPolicy.Reason reason : RetryPolicy.Reason.values()) {
            retries.put(reason, Counter.builder("agui.llm.retries")
                    .description("LLM calls tried again after a transient failure before their response")
                    .tag("reason", reason.tag())
                    .register(meters));
        }
    }

    /**
     * A new exchange for one call. Its callbacks run on the caller's event loop when called on one (no thread
     * hop for the run that asked), else on an event loop of its own.
     *
     * @param wanted whether the consumer of the call's events wants more now; reading pauses while it does not
     */
    SseExchange exchange(BooleanSupplier wanted) {
        ContextInternal current = (ContextInternal) Vertx.currentContext();
        ContextInternal context = current != null && current.isEventLoopContext()
                ? current : vertx.createEventLoopContext();
        return new SseExchange(this, context, wanted);
    }

    /** The client of the context's event loop; its connections are made on that loop. */
    HttpClient client(ContextInternal context) {
        return clients.computeIfAbsent(context.nettyEventLoop(),
                loop -> vertx.createHttpClient(clientOptions, poolOptions));
    }

    RequestOptions requestOptions(dev.langchain4j.http.client.HttpRequest request) {
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(request.method().name()))
                .setAbsoluteURI(request.url())
                .setConnectTimeout(connectTimeoutMillis);
        request.headers().forEach((name, values) -> values.forEach(value -> options.addHeader(name, value)));
        return options;
    }

    Duration responseTimeout() {
        return responseTimeout;
    }

    Duration idleTimeout() {
        return idleTimeout;
    }

    RetryPolicy retryPolicy() {
        return retryPolicy;
    }

    void countRetry(RetryPolicy.Reason reason) {
        retries.get(reason).increment();
    }
}
