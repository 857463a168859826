package dev.aguistate.store;

/**
 * A commit would have stored a thread, or a shared scope, larger than {@code agui.store.max-thread-bytes} (its
 * JSON in UTF-8, a thread's with its summary's; see {@link SerializedCommit}), or a summary would have made its
 * thread so. Nothing was written. The message names what was too large and by
 * how much; it holds nothing but sizes and the id, so a client may see it.
 */
public final class ThreadTooLarge extends StoreFailure {

    public ThreadTooLarge(String what, long bytes, long maxBytes) {
        super(what + " would take " + bytes + " bytes of JSON; at most " + maxBytes + " can be stored", null);
    }
}
