package dev.aguistate.state;

import java.util.Objects;

/**
 * Predictive state configuration: while {@code tool}'s arguments stream, the state key {@code stateKey} shows the
 * argument {@code toolArgument} as parsed so far, or the whole argument object when {@code toolArgument} is
 * {@code null}, blank or {@code "*"} (MAF writes {@code "*"}, the AG-UI client omits it: both are accepted).
 */
public record PredictiveMapping(String stateKey, String tool, String toolArgument) {

    public PredictiveMapping {
        Objects.requireNonNull(stateKey, "stateKey");
        Objects.requireNonNull(tool, "tool");
    }

    public boolean wholeArguments() {
        return toolArgument == null || toolArgument.isBlank() || toolArgument.equals("*");
    }
}
