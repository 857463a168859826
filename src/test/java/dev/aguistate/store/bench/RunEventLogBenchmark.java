package dev.aguistate.store.bench;

import dev.aguistate.store.memory.InMemoryRunEventLog;
import dev.aguistate.store.LoggedEvent;
import dev.aguistate.store.postgres.PostgresMigrator;
import dev.aguistate.store.postgres.PostgresRunEventLog;
import dev.aguistate.store.redis.RedisRunEventLog;
import dev.aguistate.store.RunEventLog;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.multi.processors.UnicastProcessor;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.redis.client.RedisOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * What a run's event log costs in each store, against the real servers, one run at a time: how many events per
 * second one appender gets through (each append awaited, as a run's thread awaits it), and the latency from the start
 * of an append to a follower (on another client, as on another replica) receiving its last entry, one batch at a
 * time. "none" is the hand-off without a log: the batch emitted into an in-process stream that the follower reads.
 * Entries are text deltas of about 200 bytes of JSON. Prints a markdown table; the command is in docs/benchmarks.md.
 */
public final class RunEventLogBenchmark {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration THROUGHPUT_WARM_UP = Duration.ofSeconds(2);
    private static final Duration THROUGHPUT_MEASURED = Duration.ofSeconds(5);
    private static final int LATENCY_WARM_UP = 300;
    private static final int LATENCY_SAMPLES = 2000;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration TTL = Duration.ofMinutes(10);
    private static final String DELTA = "lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
            + "incididunt ut labore et dolore magna aliqua ut enim ad minim veniam";

    /** A log under test: how to append, and how a follower on another client follows. */
    private record Subject(String name, Function<String, RunEventLog> appender, Function<String, RunEventLog> follower) {}

    public static void main(String[] args) {
        Vertx vertx = Vertx.vertx();
        try {
            System.out.println("| store | batch | events/s | append→follower p50 µs | p99 µs |");
            System.out.println("|---|---|---|---|---|");
            for (Subject subject : subjects(vertx)) {
                for (int batch : new int[] {1, 16}) {
                    RunEventLog appender = subject.appender().apply("appender");
                    double perSecond = appender == null ? Double.NaN : eventsPerSecond(appender, batch);
                    long[] latency = latencies(subject, batch);
                    System.out.printf(Locale.ROOT, "| %s | %d | %s | %.0f | %.0f |%n", subject.name(), batch,
                            Double.isNaN(perSecond) ? "—" : String.format(Locale.ROOT, "%.0f", perSecond),
                            latency[0] / 1000.0, latency[1] / 1000.0);
                }
            }
        } finally {
            vertx.closeAndAwait();
            System.exit(0);
        }
    }

    private static List<Subject> subjects(Vertx vertx) {
        InMemoryRunEventLog memory = new InMemoryRunEventLog(Clock.systemUTC(), TTL, 100_000,
                Runtime.getRuntime().maxMemory() / 16);
        RedisOptions redis = new RedisOptions().setConnectionString(
                url("AGUI_TEST_REDIS_URL", "redis://127.0.0.1:6379"));
        PgConnectOptions postgres = PgConnectOptions.fromUri(
                url("AGUI_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"));
        new PostgresMigrator().migrate(pool(vertx, postgres)).await().atMost(Duration.ofMinutes(1));
        return List.of(
                new Subject("none", name -> null, name -> null),
                new Subject("memory", name -> memory, name -> memory),
                new Subject("redis", name -> new RedisRunEventLog(vertx, redis, 100_000, TTL, TIMEOUT, 1),
                        name -> new RedisRunEventLog(vertx, redis, 100_000, TTL, TIMEOUT, 1)),
                new Subject("postgres", name -> postgresLog(vertx, postgres), name -> postgresLog(vertx, postgres)));
    }

    /** A replica's PostgreSQL log: a pool and a listening connection of its own. */
    private static RunEventLog postgresLog(Vertx vertx, PgConnectOptions options) {
        PgSubscriber subscriber = PgSubscriber.subscriber(vertx, options);
        RunEventLog log = new PostgresRunEventLog(pool(vertx, options), subscriber, 100_000, TTL, TIMEOUT);
        subscriber.connect().await().atMost(WAIT);
        return log;
    }

    private static Pool pool(Vertx vertx, PgConnectOptions options) {
        return PgBuilder.pool().connectingTo(options).using(vertx).build();
    }

    private static double eventsPerSecond(RunEventLog log, int batch) {
        String key = UUID.randomUUID().toString();
        long seq = 0;
        long warmUpEnds = System.nanoTime() + THROUGHPUT_WARM_UP.toNanos();
        long ends = warmUpEnds + THROUGHPUT_MEASURED.toNanos();
        long counted = 0;
        long now;
        while ((now = System.nanoTime()) < ends) {
            log.append(key, batch(seq, batch)).await().atMost(WAIT);
            seq += batch;
            if (now >= warmUpEnds) {
                counted += batch;
            }
        }
        log.expireAfter(key, Duration.ZERO).await().atMost(WAIT);
        return counted / (double) THROUGHPUT_MEASURED.toSeconds();
    }

    /** p50 and p99 in nanoseconds. */
    private static long[] latencies(Subject subject, int batch) {
        String key = UUID.randomUUID().toString();
        RunEventLog appender = subject.appender().apply("appender");
        RunEventLog followerLog = subject.follower().apply("follower");
        UnicastProcessor<List<LoggedEvent>> direct = UnicastProcessor.create();
        Multi<LoggedEvent> followed = followerLog == null ? direct.onItem().disjoint() : followerLog.follow(key, -1);
        CompletableFuture<Long>[] arrived = new CompletableFuture[1];
        long[] awaited = {-1};
        Cancellable following = followed.subscribe().with(entry -> {
            if (entry.seq() == awaited[0]) {
                arrived[0].complete(System.nanoTime());
            }
        });
        List<Long> samples = new ArrayList<>();
        long seq = 0;
        for (int n = 0; n < LATENCY_WARM_UP + LATENCY_SAMPLES; n++) {
            List<LoggedEvent> entries = batch(seq, batch);
            seq += batch;
            synchronized (arrived) {
                arrived[0] = new CompletableFuture<>();
                awaited[0] = seq - 1;
            }
            long started = System.nanoTime();
            Uni<Void> appended = appender == null ? Uni.createFrom().item(() -> {
                direct.onNext(entries);
                return null;
            }) : appender.append(key, entries);
            appended.await().atMost(WAIT);
            long received = arrived[0].orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
            if (n >= LATENCY_WARM_UP) {
                samples.add(received - started);
            }
        }
        following.cancel();
        if (appender != null) {
            appender.expireAfter(key, Duration.ZERO).await().atMost(WAIT);
        }
        Collections.sort(samples);
        return new long[] {percentile(samples, 50), percentile(samples, 99)};
    }

    private static List<LoggedEvent> batch(long from, int size) {
        List<LoggedEvent> entries = new ArrayList<>(size);
        for (long seq = from; seq < from + size; seq++) {
            entries.add(new LoggedEvent(seq, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"msg-"
                    + seq / 100 + "\",\"delta\":\"" + DELTA + "\"}"));
        }
        return entries;
    }

    private static long percentile(List<Long> sorted, int percent) {
        return sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * percent / 100.0) - 1));
    }

    private static String url(String variable, String fallback) {
        return Optional.ofNullable(System.getenv(variable)).filter(url -> !url.isBlank()).orElse(fallback);
    }
}
