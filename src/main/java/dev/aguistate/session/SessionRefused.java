package dev.aguistate.session;

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
        MESSAGES_REFUSED
    }

    private final Reason reason;

    private SessionRefused(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
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

    public Reason reason() {
        return reason;
    }
}
