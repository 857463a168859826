package dev.aguistate.http;

import dev.aguistate.session.FellBehind;
import dev.aguistate.protocol.SseFrames;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.concurrent.Flow;
import org.jboss.logging.Logger;

/**
 * Writes a connection's SSE frames to its HTTP response, each flushed as it is produced.
 *
 * <p>Everything touching the response runs on the request's Vert.x context. Demand follows the socket: the
 * next frame is requested once the write queue has room. A keep-alive comment goes out after
 * {@code keepAlive} of silence. When the client goes away the subscription is cancelled (what that does to the
 * run is the run's choice). A client that fell too far behind its run is disconnected.
 */
final class EventStreamWriter implements Flow.Subscriber<byte[]> {

    private static final Logger LOG = Logger.getLogger(EventStreamWriter.class);

    private final Vertx vertx;
    private final Context context;
    private final HttpServerResponse response;
    private final long keepAliveMs;
    private Flow.Subscription subscription;
    private long keepAliveTimer = -1;
    private boolean done;

    EventStreamWriter(Vertx vertx, Context context, HttpServerResponse response, Duration keepAlive) {
        this.vertx = vertx;
        this.context = context;
        this.response = response;
        this.keepAliveMs = keepAlive.toMillis();
    }

    /** Sends the stream's headers; the body follows as events arrive. */
    void open() {
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
        context.runOnContext(v -> {
            this.subscription = subscription;
            if (done) {
                subscription.cancel();
                return;
            }
            armKeepAlive();
            subscription.request(1);
        });
    }

    @Override
    public void onNext(byte[] frame) {
        context.runOnContext(v -> {
            if (done) {
                return;
            }
            response.write(Buffer.buffer(frame));
            armKeepAlive();
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
        context.runOnContext(v -> {
            if (!done) {
                done = true;
                vertx.cancelTimer(keepAliveTimer);
                response.reset();
            }
        });
    }

    @Override
    public void onComplete() {
        context.runOnContext(v -> finish());
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

    private void armKeepAlive() {
        if (keepAliveMs <= 0) {
            return;
        }
        vertx.cancelTimer(keepAliveTimer);
        keepAliveTimer = vertx.setTimer(keepAliveMs, id -> {
            if (!done) {
                response.write(Buffer.buffer(SseFrames.keepAlive()));
                armKeepAlive();
            }
        });
    }
}
