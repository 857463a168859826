package dev.aguistate.agent;

/**
 * An agents file that cannot be served; the message names the file, the agent and the problem. It carries no
 * stack trace or cause: it is read by whoever wrote the file, at the top of a failed start-up, where the loader's
 * frames would only bury it.
 */
public final class AgentsFileException extends RuntimeException {

    AgentsFileException(String message) {
        super(message, null, false, false);
    }
}
