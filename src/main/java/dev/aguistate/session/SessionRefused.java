package dev.aguistate.session;

import java.time.Duration;
import java.util.Optional;

/** A run that may not go ahead on its thread; nothing was started or stored. The message is safe for clients. */
public final class SessionRefused extends RuntimeException {

    public enum Reason {
        /** The thread does not exist for this user: missing, or another user's (the two are never told apart). */
        THREAD_NOT_FOUND,
        /** Another run of the thread is in progress, on this replica or another. */
        THREAD_BUSY,
        /** The thread was started with another agent; it is that agent's conversation. */
        THREAD_OF_ANOTHER_AGENT,
        /** The request's messages cannot continue the thread (see {@link Reconciliation}). */
        MESSAGES_REFUSED,
        /** The user has as many runs going on as {@code agui.run.max-active-per-user} allows. */
        TOO_MANY_RUNS,
        /** This server process runs as many runs as {@code agui.run.max-active} allows. */
        SERVER_AT_RUN_LIMIT,
        /** The user asked for more runs than {@code agui.run.rate-limit.*} allows. */
        RATE_LIMITED,
        /** As many runs wait for the thread on this server process as {@code agui.run.max-queued} allows. */
        QUEUE_FULL
    }

    private final Reason reason;
    private final Duration retryAfter;

    private SessionRefused(Reason reason, String message) {
        this(reason, message, null);
    }

    private SessionRefused(Reason reason, String message, Duration retryAfter) {
        super(message, null, false, false);
        this.reason = reason;
        this.retryAfter = retryAfter;
    }

    static SessionRefused notFound(String threadId) {
        return new SessionRefused(Reason.THREAD_NOT_FOUND, "there is no thread '" + threadId + "'");
    }

    static SessionRefused busy(String threadId) {
        return new SessionRefused(Reason.THREAD_BUSY, "thread '" + threadId
                + "' has a run in progress; retry when it has finished");
    }

    static SessionRefused anotherAgent(String threadId, String threadAgent, String requested) {
        return new SessionRefused(Reason.THREAD_OF_ANOTHER_AGENT, "thread '" + threadId + "' belongs to agent '"
                + threadAgent + "', not '" + requested + "'; start a new thread to talk to '" + requested + "'");
    }

    static SessionRefused messages(String why) {
        return new SessionRefused(Reason.MESSAGES_REFUSED, why);
    }

    static SessionRefused tooManyRuns(int limit, Duration retryAfter) {
        return new SessionRefused(Reason.TOO_MANY_RUNS, "you have " + limit + " runs going on, as many as this server "
                + "allows (agui.run.max-active-per-user); retry when one has ended, or stop one", retryAfter);
    }

    static SessionRefused serverBusy(int limit, Duration retryAfter) {
        return new SessionRefused(Reason.SERVER_AT_RUN_LIMIT, "this server has " + limit + " runs going on, as many as it "
                + "allows (agui.run.max-active); retry later", retryAfter);
    }

    static SessionRefused rateLimited(Duration retryAfter) {
        return new SessionRefused(Reason.RATE_LIMITED, "you asked for runs faster than this server allows "
                + "(agui.run.rate-limit.*); retry after the time Retry-After says", retryAfter);
    }

    static SessionRefused queueFull(String threadId, int limit, Duration retryAfter) {
        return new SessionRefused(Reason.QUEUE_FULL, limit + " runs already wait for thread '" + threadId
                + "', as many as this server allows (agui.run.max-queued); retry when one has started", retryAfter);
    }

    public Reason reason() {
        return reason;
    }

    /** How long the client should wait before asking again; empty when asking again will not help by itself. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
