package dev.aguistate.store;

import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * How a store call that the server makes again and again (appending runs' events, renewing claims, listening for
 * stop signals, cleaning up) tells the log that it fails: a warning when it starts failing, a line with the count
 * when it works again, and while it goes on failing, a reminder at most every {@link #REMIND_EVERY}; each single
 * failure goes to DEBUG. A store outage then reads as a few lines, however many runs and calls it fails, and still
 * says how long it lasted and what it cost. Thread-safe; a success outside an outage costs one volatile read.
 */
public final class OutageLog {

    static final Duration REMIND_EVERY = Duration.ofMinutes(1);

    private final Logger log;
    private final String what;
    private final String meanwhile;
    /** Read without the lock by {@link #succeeded()}; written under it. */
    private volatile boolean failing;
    private long failures;
    private long startedNanos;
    private long remindedNanos;

    /**
     * @param what      the call, as the subject of "… failed" and "… works again"
     * @param meanwhile what its failing means, told once as it starts
     */
    public OutageLog(Logger log, String what, String meanwhile) {
        this.log = log;
        this.what = what;
        this.meanwhile = meanwhile;
    }

    /**
     * The call failed; {@code detail} (which run, which thread) is logged with the failure at DEBUG only.
     *
     * @param failure the exception, or what happened
     */
    public void failed(String detail, Object failure) {
        log.debugf("%s failed (%s): %s", what, detail, failure);
        long now = System.nanoTime();
        boolean started;
        boolean remind;
        long count;
        String lasted;
        synchronized (this) {
            started = !failing;
            if (started) {
                failing = true;
                failures = 0;
                startedNanos = now;
                remindedNanos = now;
            }
            failures++;
            remind = !started && now - remindedNanos >= REMIND_EVERY.toNanos();
            if (remind) {
                remindedNanos = now;
            }
            count = failures;
            lasted = since(now);
        }
        if (started) {
            log.warnf("%s failed: %s. Meanwhile %s. Until it works again, failures are counted, not logged.", what,
                    failure, meanwhile);
        } else if (remind) {
            log.warnf("%s still fails after %s: %d failures so far, the latest: %s", what, lasted, count, failure);
        }
    }

    /** The call worked: if it failed before, the log says it works again, and after how many failures. */
    public void succeeded() {
        if (!failing) {
            return;
        }
        long now = System.nanoTime();
        long count;
        String lasted;
        synchronized (this) {
            if (!failing) {
                return;
            }
            failing = false;
            count = failures;
            lasted = since(now);
        }
        log.infof("%s works again, after %d failures in %s", what, count, lasted);
    }

    private String since(long now) {
        return String.format("%.1f s", (now - startedNanos) / 1e9);
    }
}
