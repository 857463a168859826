package dev.aguistate.session;

/** A run that may not go ahead on its thread; nothing was started or stored. */
public final class SessionRefused extends RuntimeException {

    public enum Reason {
        /** The thread does not exist for this user: missing, or another user's (the two are never told apart). */
        THREAD_NOT_FOUND,
        /** Another run of the thread is in progress, on this replica or another. */
        THREAD_BUSY
    }

    private final Reason reason;
    private final String threadId;

    SessionRefused(Reason reason, String threadId) {
        super(reason + " " + threadId, null, false, false);
        this.reason = reason;
        this.threadId = threadId;
    }

    public Reason reason() {
        return reason;
    }

    public String threadId() {
        return threadId;
    }
}
