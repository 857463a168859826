package dev.aguistate.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when Vert.x reported a blocked thread ("Thread ... has been blocked for ...") since the previous
 * check: an event loop that waits holds up every connection it serves. Registered for every test through
 * {@code META-INF/services/org.junit.jupiter.api.extension.Extension} (Quarkus turns on extension autodetection).
 *
 * <p>Vert.x's checker notices a block up to a check interval late, so a block at the very end of one test may fail
 * the next one; the message names the blocked thread and carries its stack.
 */
public final class BlockedEventLoopGuard implements BeforeEachCallback, AfterEachCallback {

    /**
     * Where Vert.x 4 logs blocked threads (the checker's old package name). Held strongly: java.util.logging keeps
     * loggers only weakly, and with them their handlers.
     */
    private static final Logger CHECKER = Logger.getLogger("io.vertx.core.impl.BlockedThreadChecker");
    private static final Recorder RECORDER = new Recorder();

    @Override
    public void beforeEach(ExtensionContext context) {
        // Again before each test: starting a Quarkus application reconfigures logging.
        if (!Arrays.asList(CHECKER.getHandlers()).contains(RECORDER)) {
            CHECKER.addHandler(RECORDER);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<String> warnings = takeWarnings();
        if (!warnings.isEmpty()) {
            throw new AssertionError("Vert.x reported a blocked thread: " + String.join("\n", warnings));
        }
    }

    /** The blocked-thread warnings since the last call, which are then forgotten. */
    public static List<String> takeWarnings() {
        return RECORDER.take();
    }

    private static final class Recorder extends Handler {

        private final List<String> warnings = new ArrayList<>();

        @Override
        public synchronized void publish(LogRecord record) {
            String message = record.getMessage();
            if (message != null && message.contains("has been blocked for")) {
                StringBuilder warning = new StringBuilder(message);
                if (record.getThrown() != null) {
                    for (StackTraceElement frame : record.getThrown().getStackTrace()) {
                        warning.append("\n\tat ").append(frame);
                    }
                }
                warnings.add(warning.toString());
            }
        }

        synchronized List<String> take() {
            List<String> taken = List.copyOf(warnings);
            warnings.clear();
            return taken;
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
