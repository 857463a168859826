package dev.aguistate.store;

import java.util.Objects;

/**
 * What names a thread in every store: its owner and its id together. Thread ids are the clients' choice, so each
 * owner has ids of their own: the same id is a different thread for another owner, and an id one user holds tells
 * another nothing and cannot be taken from them. Run claims and summarizing locks are kept by the same key.
 *
 * @param owner the owner's key ({@code session.Caller#owner}: the user, with their tenant when there is one)
 */
public record ThreadKey(String owner, String threadId) {

    public ThreadKey {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(threadId, "threadId");
    }
}
