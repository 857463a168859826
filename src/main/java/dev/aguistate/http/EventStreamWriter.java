package dev.aguistate.http;

import dev.aguistate.session.FellBehind;
import dev.aguistate.protocol.ClientProtocol;
import dev.aguistate.protocol.SseFrames;
import io.netty.buffer.Unpooled;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Writes a connection's SSE frames to its HTTP response, each flushed as it is produced and shaped for the AG-UI
 * version the client speaks ({@link ClientProtocol#adapt}).
 *
 * <p>Everything touching the response runs on the request's Vert.x context, in the order the signals came: a
 * signal arriving on the context's own thread with nothing queued is handled at once, any other is queued to the
 * context (a hop per frame was a measurable share of a frame's cost). Demand follows the socket: the next frame is
 * requested once the write queue has room. A keep-alive comment goes out after {@code keepAlive} of silence,
 * watched by one timer per connection that moves on when frames were written (not a timer set and cancelled per
 * frame). When the client goes away the subscription is cancelled (what that does to the run is the run's choice).
 * A client that fell too far behind its run is disconnected.
 */
final class EventStreamWriter implements Flow.Subscriber<byte[]> {

    private static final Logger LOG = Logger.getLogger(EventStreamWriter.class);

    private final Vertx vertx;
    private final Context context;
    private final HttpServerResponse response;
    private final long keepAliveMs;
    private final ClientProtocol protocol;
    /** Signals queued to the context and not yet handled: while there are any, later ones queue behind them. */
    private final AtomicInteger queued = new AtomicInteger();
    private Thread contextThread;
    private Flow.Subscription subscription;
    private long keepAliveTimer = -1;
    private long lastWriteNanos;
    private boolean done;

    EventStreamWriter(Vertx vertx, Context context, HttpServerResponse response, Duration keepAlive,
                      ClientProtocol protocol) {
        this.vertx = vertx;
        this.context = context;
        this.response = response;
        this.keepAliveMs = keepAlive.toMillis();
        this.protocol = protocol;
    }

    /** Sends the stream's headers; the body follows as events arrive. Called on the context. */
    void open() {
        contextThread = Thread.currentThread();
        response.setStatusCode(200)
                .setChunked(true)
                .putHeader("Content-Type", SseFrames.CONTENT_TYPE)
                .putHeader("Cache-Control", "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        response.closeHandler(v -> onClientGone());
        response.exceptionHandler(e -> onClientGone());
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        onContext(() -> {
            this.subscription = subscription;
            if (done) {
                subscription.cancel();
                return;
            }
            resetSilence();
            subscription.request(1);
        });
    }

    @Override
    public void onNext(byte[] frame) {
        onContext(() -> {
            if (done) {
                return;
            }
            // no completion handler: the Future-returning write makes a promise and a listener per frame, and the
            // write queue's state (below) is all the pacing needs. The frame is wrapped, not copied: nothing
            // changes a frame once made (several connections may write the same one)
            response.write(Buffer.buffer(Unpooled.wrappedBuffer(protocol.adapt(frame))), null);
            resetSilence();
            if (response.writeQueueFull()) {
                response.drainHandler(d -> subscription.request(1));
            } else {
                subscription.request(1);
            }
        });
    }

    @Override
    public void onError(Throwable error) {
        if (!(error instanceof FellBehind)) {
            // The run loop turns failures into RUN_ERROR events, so this is a bug; end the stream rather than hang.
            LOG.error("event stream failed", error);
        }
        // Closed without a terminal event: the client sees the connection drop and may resume from its cursor.
        onContext(() -> {
            if (!done) {
                done = true;
                vertx.cancelTimer(keepAliveTimer);
                response.reset();
            }
        });
    }

    @Override
    public void onComplete() {
        onContext(this::finish);
    }

    private void onContext(Runnable signal) {
        if (Thread.currentThread() == contextThread && queued.get() == 0) {
            signal.run();
            return;
        }
        queued.incrementAndGet();
        context.runOnContext(v -> {
            queued.decrementAndGet();
            signal.run();
        });
    }

    private void finish() {
        if (!done) {
            done = true;
            vertx.cancelTimer(keepAliveTimer);
            response.end();
        }
    }

    private void onClientGone() {
        if (!done) {
            done = true;
            vertx.cancelTimer(keepAliveTimer);
            if (subscription != null) {
                subscription.cancel();
            }
        }
    }

    /** The silence starts now (the stream opened, or something was written); a keep-alive timer watches it. */
    private void resetSilence() {
        lastWriteNanos = System.nanoTime();
        if (keepAliveMs > 0 && keepAliveTimer < 0) {
            watchSilence(keepAliveMs);
        }
    }

    private void watchSilence(long delayMs) {
        keepAliveTimer = vertx.setTimer(delayMs, id -> {
            keepAliveTimer = -1;
            if (done) {
                return;
            }
            long silentMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastWriteNanos);
            if (silentMs >= keepAliveMs) {
                response.write(Buffer.buffer(SseFrames.keepAlive()));
                resetSilence();
            } else {
                watchSilence(keepAliveMs - silentMs);
            }
        });
    }
}
