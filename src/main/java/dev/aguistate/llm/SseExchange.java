package dev.aguistate.llm;

import dev.aguistate.sse.SseDecoder;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEvent;
import dev.langchain4j.http.client.sse.ServerSentEventContext;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParsingHandle;
import io.netty.buffer.Unpooled;
import io.netty.channel.ConnectTimeoutException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.ContextInternal;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * One streamed HTTP exchange with the LLM endpoint, without a thread of its own: Vert.x delivers the body in
 * chunks on an event loop, {@link SseDecoder} turns them into events, and the events go to langchain4j's listener.
 *
 * <p>Everything happens on one Vert.x context, so the state needs no locks; only {@link #cancel()} and
 * {@link #demandArrived()} are called from other threads, and they hop onto the context.
 *
 * <ul>
 *   <li><b>Backpressure.</b> Events are delivered only while the consumer wants them ({@code wanted}); the
 *       others wait, decoded, until {@link #demandArrived()}. Once more than {@link #MAX_BACKLOG} characters
 *       wait, reading pauses ({@link HttpClientResponse#pause()}), so a slow consumer makes us hold little more
 *       than that. (Pausing at every event would cost a pause and a resume per token for the usual consumer,
 *       which asks for one event at a time.) The idle timeout counts only silence while the consumer asks.</li>
 *   <li><b>Retries.</b> A failure before the response (refused or closed connection, 429, 502, 503) is tried again
 *       per the {@link RetryPolicy}; nothing has reached the listener by then, so a retry is invisible to it.</li>
 *   <li><b>Truthful ends.</b> A 2xx whose body is not an event stream (another content type, no event at all)
 *       fails with {@code llm_bad_response}; a body cut off fails with {@code llm_connection_lost}.</li>
 *   <li><b>Cancellation</b> closes the connection at once (HTTP/1.1 has no other way to stop a response).</li>
 * </ul>
 */
final class SseExchange implements ServerSentEventParsingHandle {

    private static final long NO_TIMER = -1;

    /** Decoded event data, in characters, held for a consumer that does not ask before reading pauses. */
    static final int MAX_BACKLOG = 16 * 1024;

    private final UpstreamHttp upstream;
    private final ContextInternal context;
    private final BooleanSupplier wanted;
    private final ServerSentEventContext eventContext = new ServerSentEventContext(this);
    private final SseDecoder decoder = new SseDecoder();
    private volatile boolean cancelled;
    /** Written on the context, read by {@link #demandArrived()}; see {@link #pump()} for why that is safe. */
    private volatile boolean awaitingDemand;

    // Confined to the context:
    private HttpRequest request;
    private byte[] body;
    private ServerSentEventListener listener;
    /** The listener, if it reads an event's ASCII data in place ({@link SseDecoder#pollAscii}). */
    private SseDecoder.AsciiData inPlace;
    private int retries;
    private HttpClientRequest current;
    private HttpClientResponse response;
    private long timer = NO_TIMER;
    private long lastActivityNanos;
    private boolean paused;
    private boolean pumping;
    private boolean bodyEnded;
    private boolean anyEvent;
    private boolean finished;

    SseExchange(UpstreamHttp upstream, ContextInternal context, BooleanSupplier wanted) {
        this.upstream = upstream;
        this.context = context;
        this.wanted = wanted;
    }

    /** Sends the request; from now on the listener hears of the response, unless the exchange is cancelled. */
    void start(HttpRequest request, byte[] body, ServerSentEventListener listener) {
        context.runOnContext(v -> {
            this.request = request;
            this.body = body;
            this.listener = listener;
            this.inPlace = listener instanceof SseDecoder.AsciiData reader ? reader : null;
            attempt();
        });
    }

    /** Stops the exchange and closes its connection; the listener hears nothing more. Any thread. */
    @Override
    public void cancel() {
        cancelled = true;
        if (context.isRunningOnContext()) {
            abort();
        } else {
            context.runOnContext(v -> abort());
        }
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    /** The consumer asked for more events. Any thread. */
    void demandArrived() {
        if (awaitingDemand) {
            if (context.isRunningOnContext()) {
                pump();
            } else {
                context.runOnContext(v -> pump());
            }
        }
    }

    private boolean over() {
        return finished || cancelled;
    }

    private void attempt() {
        if (over()) {
            return;
        }
        RequestOptions options;
        try {
            options = upstream.requestOptions(request);
        } catch (RuntimeException malformedUrl) {
            fail(ModelFailure.Kind.UNREACHABLE, malformedUrl);
            return;
        }
        upstream.client(context).request(options).onComplete(obtained -> {
            if (obtained.failed()) {
                connectFailed(obtained.cause());
                return;
            }
            HttpClientRequest sent = obtained.result();
            if (over()) {
                sent.reset();
                return;
            }
            current = sent;
            // A reset or closed connection reaches this exchange through its request and response; without a
            // handler Vert.x would also log it, without any context, at ERROR.
            sent.connection().exceptionHandler(reportedByTheExchange -> { });
            armTimer(upstream.responseTimeout(), () -> fail(ModelFailure.Kind.TIMEOUT, null));
            sent.send(Buffer.buffer(Unpooled.wrappedBuffer(body))) // wrapped, not copied: nothing changes it
                    .onComplete(answered -> {
                        if (answered.succeeded()) {
                            // before anything else: it also hears of our own reset, which Vert.x would log otherwise
                            answered.result().exceptionHandler(this::onBodyFailed);
                        }
                        if (over()) {
                            return;
                        }
                        if (answered.succeeded()) {
                            onResponse(answered.result());
                        } else if (!retried(RetryPolicy.Reason.CONNECTION_CLOSED, null)) {
                            fail(ModelFailure.Kind.CONNECTION_LOST, answered.cause());
                        }
                    });
        });
    }

    private void connectFailed(Throwable cause) {
        if (over()) {
            return;
        }
        boolean refused = cause instanceof ConnectException && !(cause instanceof ConnectTimeoutException);
        if (!refused || !retried(RetryPolicy.Reason.CONNECTION_REFUSED, null)) {
            fail(ModelFailure.Kind.UNREACHABLE, cause);
        }
    }

    /** Schedules the next attempt if the policy allows one. */
    private boolean retried(RetryPolicy.Reason reason, Duration retryAfter) {
        Optional<Duration> delay = upstream.retryPolicy().delayBefore(retries + 1, retryAfter);
        if (delay.isEmpty()) {
            return false;
        }
        retries++;
        upstream.countRetry(reason);
        current = null;
        response = null;
        armTimer(delay.get(), this::attempt);
        return true;
    }

    private void onResponse(HttpClientResponse answer) {
        response = answer;
        int status = answer.statusCode();
        if (status < 200 || status > 299) {
            onErrorStatus(answer);
            return;
        }
        String contentType = answer.getHeader("Content-Type");
        if (contentType != null && !contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream")) {
            fail(ModelFailure.Kind.BAD_RESPONSE, new IllegalStateException("a 2xx response of type " + contentType));
            return;
        }
        listener.onOpen(SuccessfulHttpResponse.builder().statusCode(status).headers(headersOf(answer)).build());
        answer.handler(this::onBody);
        answer.endHandler(v -> onEnd());
        lastActivityNanos = System.nanoTime();
        armTimer(upstream.idleTimeout(), this::checkIdle);
        pump();
    }

    private void onErrorStatus(HttpClientResponse answer) {
        int status = answer.statusCode();
        Duration retryAfter = RetryPolicy.retryAfter(answer.getHeader("retry-after-ms"),
                answer.getHeader("Retry-After"), Instant.now());
        armTimer(upstream.idleTimeout(), () -> fail(ModelFailure.Kind.IDLE_TIMEOUT, null));
        answer.body().onComplete(body -> {
            if (over()) {
                return;
            }
            disarmTimer();
            Optional<RetryPolicy.Reason> reason = RetryPolicy.Reason.forStatus(status);
            if (reason.isPresent() && retried(reason.get(), retryAfter)) {
                return;
            }
            finished = true;
            String text = body.succeeded() ? body.result().toString(StandardCharsets.UTF_8) : "";
            listener.onError(new HttpException(status, text));
        });
    }

    private void onBody(Buffer chunk) {
        if (over()) {
            return;
        }
        lastActivityNanos = System.nanoTime();
        try {
            decoder.feed(chunk);
        } catch (SseDecoder.EventTooLarge e) {
            fail(ModelFailure.Kind.BAD_RESPONSE, e);
            return;
        }
        pump();
    }

    private void onEnd() {
        if (over()) {
            return;
        }
        bodyEnded = true;
        decoder.endOfStream();
        disarmTimer();
        pump();
    }

    private void onBodyFailed(Throwable cause) {
        if (!over()) {
            fail(ModelFailure.Kind.CONNECTION_LOST, cause);
        }
    }

    /**
     * Delivers decoded events while the consumer wants them, then reads on, waits for demand (pausing the reading
     * once the backlog is large), or ends the exchange.
     *
     * <p>Waiting sets {@code awaitingDemand} before it looks at the demand once more, and the consumer's side raises
     * the demand before it looks at {@code awaitingDemand} ({@link #demandArrived()}): with both volatile, at least
     * one of them sees the other, so a request that races with the wait is never lost.
     */
    private void pump() {
        if (pumping) {
            return; // called back from inside the loop below, which carries on by itself
        }
        pumping = true;
        try {
            while (!over()) {
                if (!wanted.getAsBoolean()) {
                    awaitingDemand = true;
                    if (!wanted.getAsBoolean()) {
                        if (!paused && decoder.backlog() > MAX_BACKLOG) {
                            paused = true;
                            response.pause();
                        }
                        return;
                    }
                }
                if (awaitingDemand) {
                    awaitingDemand = false;
                    lastActivityNanos = System.nanoTime(); // the idle clock restarts when the consumer asks again
                }
                if (inPlace != null && decoder.pollAscii(inPlace)) {
                    anyEvent = true;
                    continue;
                }
                ServerSentEvent event = decoder.poll();
                if (event != null) {
                    anyEvent = true;
                    listener.onEvent(event, eventContext);
                } else if (bodyEnded) {
                    complete();
                } else {
                    if (paused) {
                        paused = false;
                        response.resume();
                    }
                    return;
                }
            }
        } finally {
            pumping = false;
        }
    }

    /** Fails the exchange after {@code agui.llm.idle-timeout} of upstream silence while the consumer was asking. */
    private void checkIdle() {
        long idleNanos = upstream.idleTimeout().toNanos();
        long silentNanos = awaitingDemand ? 0 : System.nanoTime() - lastActivityNanos;
        if (silentNanos >= idleNanos) {
            fail(ModelFailure.Kind.IDLE_TIMEOUT, null);
        } else {
            armTimer(Duration.ofNanos(idleNanos - silentNanos), this::checkIdle);
        }
    }

    private void complete() {
        finished = true;
        if (anyEvent) {
            listener.onClose();
        } else {
            listener.onError(new ModelFailure(ModelFailure.Kind.BAD_RESPONSE,
                    new IllegalStateException("a 2xx response without any server-sent event")));
        }
    }

    private void fail(ModelFailure.Kind kind, Throwable cause) {
        if (over()) {
            return;
        }
        abort();
        listener.onError(new ModelFailure(kind, cause));
    }

    private void abort() {
        if (finished) {
            return;
        }
        finished = true;
        disarmTimer();
        if (current != null) {
            current.reset();
        }
    }

    private void armTimer(Duration delay, Runnable action) {
        disarmTimer();
        timer = context.setTimer(Math.max(1, delay.toMillis()), id -> {
            timer = NO_TIMER;
            action.run();
        });
    }

    private void disarmTimer() {
        if (timer != NO_TIMER) {
            context.owner().cancelTimer(timer);
            timer = NO_TIMER;
        }
    }

    private static Map<String, List<String>> headersOf(HttpClientResponse answer) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        answer.headers().forEach(h -> headers.computeIfAbsent(h.getKey(), k -> new ArrayList<>()).add(h.getValue()));
        return headers;
    }
}
