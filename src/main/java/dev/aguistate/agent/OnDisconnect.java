package dev.aguistate.agent;

import java.util.Locale;
import java.util.Optional;

/**
 * What a run does when the connection that started it closes. {@link #STOP} is what {@code @ag-ui/client}'s
 * {@code abortRun()} means and keeps a Stop button working; {@link #CONTINUE} lets the run finish and keep its
 * outcome, for clients that reconnect ({@code POST /agui/{agent}/connect}). Chosen per request
 * ({@code forwardedProps.onDisconnect}), per agent, or for the server ({@code agui.run.on-disconnect}).
 */
public enum OnDisconnect {
    STOP, CONTINUE;

    /** The policy a request names ({@code "stop"} or {@code "continue"}), if it is one. */
    public static Optional<OnDisconnect> named(String name) {
        for (OnDisconnect policy : values()) {
            if (policy.name().toLowerCase(Locale.ROOT).equals(name)) {
                return Optional.of(policy);
            }
        }
        return Optional.empty();
    }
}
