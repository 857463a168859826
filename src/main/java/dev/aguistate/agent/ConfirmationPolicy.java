package dev.aguistate.agent;

import dev.aguistate.tools.BackendTool;
import java.util.Set;

/**
 * Which of an agent's backend tools wait for the user's approval instead of running: every state tool (one that
 * writes state through {@code outputsToState}), the named ones, or none. A tool that writes state only through
 * {@code ToolContext.updateState} must be named.
 */
public record ConfirmationPolicy(boolean allStateTools, Set<String> tools, ConfirmationMessages messages) {

    public static final ConfirmationPolicy NONE = new ConfirmationPolicy(false, Set.of(), ConfirmationMessages.GENERIC);

    public ConfirmationPolicy {
        tools = Set.copyOf(tools);
    }

    public boolean requires(BackendTool tool) {
        return allStateTools && !tool.outputsToState().isEmpty() || tools.contains(tool.name());
    }

    public boolean enabled() {
        return allStateTools || !tools.isEmpty();
    }
}
