package dev.aguistate.session;

import dev.aguistate.run.RunStart;
import dev.aguistate.store.RunLock;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * A run's hold on its thread, from the claim until {@link ThreadSessions#release}: whose run it is, what the run
 * starts from, and the claim, kept from lapsing by {@code renewal} while the run goes on.
 */
public record ThreadSession(Caller owner, RunStart start, RunLock lock, Cancellable renewal) {}
