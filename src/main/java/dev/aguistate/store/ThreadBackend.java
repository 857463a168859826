package dev.aguistate.store;

/**
 * A backend's client (memory, Redis, PostgreSQL): the threads, their claims and their summaries live side by side
 * and share its connection, so one object serves the three ports. It is what the wiring builds and the contract
 * tests check; callers ask for the port they use.
 */
public interface ThreadBackend extends ThreadStore, ThreadLocks, ThreadSummaries {
}
