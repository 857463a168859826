package dev.aguistate.agent;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a run request does when its thread already has a run going on (a second message while the agent still
 * answers, a second tab, a retrying client), on whichever replica: the double-texting strategies of LangGraph's agent
 * server. Chosen per request ({@code forwardedProps.multitask}), per agent, or for the server
 * ({@code agui.run.multitask}); docs/threads.md shows each.
 */
public enum Multitask {
    /** {@code 409 thread_busy}, after {@code agui.store.lock-wait} for a run that may be ending. */
    REJECT,
    /** The request's stream opens at once and its run starts once the thread is free, in arrival order. */
    ENQUEUE,
    /** The active run is stopped ({@code RUN_FINISHED cancelled}, what it completed kept), then this one starts. */
    INTERRUPT,
    /**
     * As {@link #INTERRUPT}, and what the stopped run added to the thread (its messages, its changes of the thread's
     * state) is removed; its tools' side effects and its changes of shared scopes are not undone.
     */
    ROLLBACK,
    /**
     * The request's new user message joins the active run at its next round boundary (after the current tool
     * results) and its stream joins the run as a connect does; when the run ends before that round, the message
     * starts a run of its own, as {@link #ENQUEUE}. A request to an idle thread, or whose last message is not a
     * user message, is a run as {@link #ENQUEUE} makes it.
     */
    STEER;

    /** The name a request or a file uses: {@code "enqueue"}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The strategy a request names, if it is one. */
    public static Optional<Multitask> named(String name) {
        return Arrays.stream(values()).filter(strategy -> strategy.wireName().equals(name)).findFirst();
    }

    /** {@code "reject", "enqueue", …}: for the messages that refuse a name that is none. */
    public static String choices() {
        return Arrays.stream(values()).map(strategy -> '"' + strategy.wireName() + '"')
                .collect(Collectors.joining(", "));
    }
}
