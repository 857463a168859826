package dev.aguistate.store.redis;

import dev.aguistate.store.OutageLog;
import dev.aguistate.store.ThreadSignal;
import dev.aguistate.store.ThreadSignals;
import dev.aguistate.store.StoreCalls;
import dev.aguistate.store.LocalThreadSignals;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.RedisOptions;
import java.time.Duration;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Signals about threads' runs through Redis publish/subscribe, on the channel {@code agui:thread-signals}. Each
 * replica holds one subscribed connection, made by a client of its own. It pings it every {@code timeout}: a healthy connection so
 * never stays quiet long enough for the client's read limit (twice the timeout) to close it, and a silent one is
 * closed by that limit. When the connection fails or closes, it subscribes again on a new one, a second later and
 * then every second until Redis answers. A signal published meanwhile is missed, as {@link ThreadSignals} allows.
 */
public final class RedisThreadSignals implements ThreadSignals, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RedisThreadSignals.class);
    static final String CHANNEL = "agui:thread-signals";
    private static final Duration RESUBSCRIBE_AFTER = Duration.ofSeconds(1);
    private static final OutageLog SUBSCRIPTION = new OutageLog(LOG, "the subscription to " + CHANNEL,
            "signals from other replicas are missed; it is made again every " + RESUBSCRIBE_AFTER.toSeconds()
                    + " s");

    private final Vertx vertx;
    private final Redis publisher;
    private final RedisOptions subscriberOptions;
    private final Duration timeout;
    private final LocalThreadSignals listeners = new LocalThreadSignals();
    private final long pingTimer;
    /** The client of the current subscription, or of the attempt to make one. */
    private volatile Redis subscriber;
    private volatile RedisConnection subscribed;
    private volatile boolean closed;

    /** Subscribes at once, and again whenever the subscription is lost. */
    public RedisThreadSignals(Vertx vertx, RedisOptions options, Duration timeout) {
        this.vertx = vertx;
        this.publisher = Redis.createClient(vertx, options);
        this.subscriberOptions = new RedisOptions(options).setMaxPoolSize(1);
        this.timeout = timeout;
        subscribe();
        this.pingTimer = vertx.setPeriodic(timeout.toMillis(), timer -> ping());
    }

    @Override
    public Uni<Void> send(ThreadSignal signal) {
        return StoreCalls.timed(publisher.send(Request.cmd(Command.PUBLISH).arg(CHANNEL).arg(signal.wire())), timeout)
                .replaceWithVoid();
    }

    @Override
    public void listen(Consumer<ThreadSignal> listener) {
        listeners.listen(listener);
    }

    private void subscribe() {
        if (closed) {
            return;
        }
        Redis client = Redis.createClient(vertx, subscriberOptions);
        subscriber = client;
        StoreCalls.timed(client.connect().call(connection -> {
                    connection.handler(this::received);
                    connection.endHandler(this::lost);
                    connection.exceptionHandler(failure -> LOG.debugf("the subscription to %s failed: %s", CHANNEL,
                            failure));
                    return connection.send(Request.cmd(Command.SUBSCRIBE).arg(CHANNEL));
                }), timeout)
                .subscribe().with(connection -> {
                    subscribed = connection;
                    SUBSCRIPTION.succeeded();
                }, failure -> {
                    SUBSCRIPTION.failed("subscribing", failure);
                    client.close();
                    vertx.setTimer(RESUBSCRIBE_AFTER.toMillis(), timer -> subscribe());
                });
    }

    /** A push message: {@code message}, the channel, the signal. */
    private void received(Response push) {
        if (push.size() == 3 && "message".equals(push.get(0).toString()) && CHANNEL.equals(push.get(1).toString())) {
            listeners.deliver(push.get(2).toString());
        }
    }

    private void lost() {
        subscribed = null;
        subscriber.close();
        if (!closed) {
            SUBSCRIPTION.failed("lost", "the connection closed");
            vertx.setTimer(RESUBSCRIBE_AFTER.toMillis(), timer -> subscribe());
        }
    }

    private void ping() {
        RedisConnection connection = subscribed;
        if (connection != null) {
            connection.send(Request.cmd(Command.PING)).subscribe().with(pong -> {},
                    failure -> LOG.debugf("pinging the subscription to %s failed: %s", CHANNEL, failure));
        }
    }

    @Override
    public void close() {
        closed = true;
        vertx.cancelTimer(pingTimer);
        publisher.close();
        Redis client = subscriber;
        if (client != null) {
            client.close();
        }
    }
}
