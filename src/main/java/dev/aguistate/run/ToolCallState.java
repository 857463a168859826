package dev.aguistate.run;

import dev.aguistate.protocol.AgUiEvent;
import java.util.List;
import org.jboss.logging.Logger;

/** One streamed tool call: the arguments received so far, and whether its END was sent. */
final class ToolCallState {

    private static final Logger LOG = Logger.getLogger(ToolCallState.class);

    final String id;
    final String name;
    final StringBuilder arguments = new StringBuilder();
    boolean ended;

    ToolCallState(String id, String name) {
        this.id = id;
        this.name = name;
    }

    /** Sends a fragment as TOOL_CALL_ARGS; false when there was nothing to send. */
    boolean appendArguments(String delta, List<AgUiEvent> out) {
        if (delta == null || delta.isEmpty() || ended) {
            return false;
        }
        arguments.append(delta);
        out.add(new AgUiEvent.ToolCallArgs(id, delta));
        return true;
    }

    /**
     * What the streamed fragments missed of the complete arguments (usually nothing). The complete arguments
     * win: if they contradict what was streamed, they replace it for execution.
     */
    String missingArguments(String complete) {
        if (complete == null || complete.contentEquals(arguments)) {
            return null;
        }
        if (complete.startsWith(arguments.toString())) {
            return complete.substring(arguments.length());
        }
        LOG.warnf("tool call %s: complete arguments differ from the streamed ones; using the complete ones", id);
        arguments.setLength(0);
        arguments.append(complete);
        return null;
    }

    void end(List<AgUiEvent> out) {
        if (!ended) {
            ended = true;
            out.add(new AgUiEvent.ToolCallEnd(id));
        }
    }

    String argumentsOrEmptyObject() {
        return arguments.isEmpty() ? "{}" : arguments.toString();
    }
}
