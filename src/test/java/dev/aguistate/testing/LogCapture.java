package dev.aguistate.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;

/**
 * What the process logs, at a level or above, while the capture is open: for a test that checks what an operator
 * reads besides what a client sees (never instead of it). Open it after the application started: a Quarkus start
 * reconfigures logging.
 */
public final class LogCapture implements AutoCloseable {

    /** Held strongly: java.util.logging keeps loggers only weakly, and with them their handlers. */
    private final Logger root = Logger.getLogger("");
    private final Recorder recorder;

    private LogCapture(Level level) {
        recorder = new Recorder(level);
        root.addHandler(recorder);
    }

    /** Captures every record at {@code level} or above, from any logger. */
    public static LogCapture atLeast(Level level) {
        return new LogCapture(level);
    }

    /** The records so far, each as "LEVEL logger: message". */
    public List<String> lines() {
        return recorder.lines(record -> true);
    }

    /**
     * The records so far at ERROR, save an {@link AssertionError} that a library's own {@code assert} raised: tests
     * run with assertions on, a server with them off (the Redis client asserts, on a connection that failed and then
     * closed, that it was not closed yet; this code has no asserts).
     */
    public List<String> errors() {
        return recorder.lines(record -> record.getLevel().intValue() >= Level.SEVERE.intValue()
                && !(record.getThrown() instanceof AssertionError assertion && !raisedHere(assertion)));
    }

    private static boolean raisedHere(AssertionError assertion) {
        StackTraceElement[] stack = assertion.getStackTrace();
        return stack.length > 0 && stack[0].getClassName().startsWith("dev.aguistate.");
    }

    /** The records so far whose message contains {@code text}. */
    public List<String> containing(String text) {
        return recorder.lines(record -> message(record).contains(text));
    }

    @Override
    public void close() {
        root.removeHandler(recorder);
    }

    private static String message(LogRecord record) {
        String message = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
        return message == null ? "" : message;
    }

    private static final class Recorder extends Handler {

        private final Level level;
        private final List<LogRecord> records = new ArrayList<>();

        Recorder(Level level) {
            this.level = level;
        }

        @Override
        public synchronized void publish(LogRecord record) {
            if (record.getLevel().intValue() >= level.intValue()) {
                records.add(record);
            }
        }

        synchronized List<String> lines(Predicate<LogRecord> which) {
            return records.stream().filter(which)
                    .map(record -> record.getLevel() + " " + record.getLoggerName() + ": " + message(record)
                            + (record.getThrown() == null ? "" : " (" + record.getThrown() + ")"))
                    .toList();
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
