package dev.aguistate.llm;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Cancellation of one upstream HTTP exchange, usable before langchain4j hands out a streaming handle
 * (it only does so with the first content callback, which may come late or never). Cancelling closes the
 * response body, which aborts the exchange; a body that arrives after cancellation is closed at once.
 */
final class UpstreamCall {

    private static final Closeable CANCELLED = () -> { };

    private final AtomicReference<Closeable> body = new AtomicReference<>();

    /** Registers the response body; false (and the body closed) if the call was already cancelled. */
    boolean attach(InputStream responseBody) {
        if (body.compareAndSet(null, responseBody)) {
            return true;
        }
        closeQuietly(responseBody);
        return false;
    }

    void cancel() {
        Closeable previous = body.getAndSet(CANCELLED);
        if (previous != null && previous != CANCELLED) {
            closeQuietly(previous);
        }
    }

    boolean cancelled() {
        return body.get() == CANCELLED;
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // the exchange is being abandoned; nothing to report
        }
    }
}
